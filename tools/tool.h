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

/* The folder holding this executable (no trailing slash), or NULL. */
const char *tool_exe_dir(void);
/* Print argv as a shell command line (quoted where needed) to stderr. */
void tool_print_command(char *const *argv);
/* Run argv (searched in PATH) and wait; returns its exit status (127 when it could not
 * be started, 128+n when killed by signal n). */
int tool_spawn_wait(char *const *argv);

#endif
