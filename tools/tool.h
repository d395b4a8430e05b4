/* tools/tool.h — what the parts of the `vcuda` command share. */
#ifndef VCUDA_TOOLS_TOOL_H
#define VCUDA_TOOLS_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#define VCUDA_VERSION_STRING "0.1.0"

/* `vcuda cc`, `vcuda devices`: argv holds the arguments after the command's name. */
int tool_cc(int argc, char **argv);
int tool_devices(int argc, char **argv);
int tool_prof(int argc, char **argv);
int tool_check(int argc, char **argv);

/* `vcuda cc` linking relocatable device code (tools/rdc.c): compile the CUDA sources among
 * inputs with opts (nvcc and the options, inputs and -o excluded), generate the objects'
 * device-link registration, and link everything with link_flags into output (NULL: nvcc's
 * default). Returns the exit status. */
int tool_cc_rdc(char **opts, size_t nopts, char **inputs, size_t ninputs, const char *output,
                char **link_flags, size_t nlink, bool verbose);

/* The folder holding libvcuda.so and the names it is installed under (libcuda.so.1,
 * libcudart.so.13) and vcuda's libnvrtc: <bin>/../lib for a build or installed tree. */
const char *tool_lib_dir(void);
/* Put that folder first on LD_LIBRARY_PATH, so that a program linked against NVIDIA's
 * shared libraries (nvcc -cudart shared, -lcuda, -lnvrtc) runs on vcuda's. */
void tool_use_vcuda_libraries(void);
/* The folder holding this executable (no trailing slash), or NULL. */
const char *tool_exe_dir(void);
/* Print argv as a shell command line (quoted where needed) to stderr. */
void tool_print_command(char *const *argv);
/* Run argv (searched in PATH) and wait; returns its exit status (127 when it could not
 * be started, 128+n when killed by signal n). */
int tool_spawn_wait(char *const *argv);

/* Options several commands take alike (tools/options.c). The value of option name at
 * argv[*i], given as "name=value" or as "name value" (then *i moves past it), or NULL
 * when argv[*i] is not that option. */
const char *tool_option_value(int argc, char **argv, int *i, const char *name);
/* Is name a preset or a list of them ("h100", "h100,a100", "h100x2"), as VCUDA_DEVICE takes
 * it? If not, says so on stderr (as who) with the valid names. */
bool tool_check_devices(const char *who, const char *name);
/* Is v a positive number of threads? If not, says so on stderr (as who). */
bool tool_check_threads(const char *who, const char *v);

#endif
