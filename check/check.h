/* check/check.h — the sanitizer tools behind `vcuda check`, as the runtime sees them.
 *
 * One tool runs per process, chosen by the environment the `vcuda check` command sets:
 *
 *   VCUDA_CHECK=memcheck|racecheck|synccheck|initcheck   the tool (unset: no checking)
 *   VCUDA_CHECK_LEAKS=1          memcheck: report device memory not freed at exit/reset
 *   VCUDA_CHECK_LOG=path         write the reports there instead of stdout
 *   VCUDA_CHECK_PRINT_LIMIT=N    print at most N reports (default 100, 0 = all)
 *   VCUDA_CHECK_STATUS=path      where the error count goes at exit (the command reads it
 *                                and prints the summary; without it the library does)
 *
 * Reports look like compute-sanitizer's: every line starts with "========= ", they go to
 * the program's stdout (so that filtering those lines out gives the program's own
 * output), and kernel reports name the kernel, block, thread, address and size, the CUDA
 * source line when the program was built with -lineinfo, and the PTX line.
 *
 * The runtime calls in at a few points: each launch (check_launch_begin attaches the
 * checker's exec_observer, check_launch_end prints what it found and says whether the
 * launch must fail), allocations and frees, host-side writes (memset, copies), API calls
 * that fail, and the end of the context (leaks). Everything else happens in the
 * observer's callbacks (check/launch.c) on the executor's worker threads.
 */
#ifndef VCUDA_CHECK_CHECK_H
#define VCUDA_CHECK_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../exec/exec.h"

typedef enum check_tool {
    CHECK_TOOL_NONE = 0, CHECK_TOOL_MEMCHECK, CHECK_TOOL_RACECHECK, CHECK_TOOL_SYNCCHECK,
    CHECK_TOOL_INITCHECK
} check_tool;

typedef struct check_state check_state;
typedef struct check_launch check_launch;

/* The process's checker, configured from the environment on first call; NULL when
 * VCUDA_CHECK is unset or empty. An unknown tool name is reported on stderr and the
 * process exits with status 2 (a checker that silently checks nothing would lie). */
check_state *check_get(void);
check_tool check_state_tool(const check_state *st);

/* "memcheck", ...; NULL for CHECK_TOOL_NONE. Inline: the `vcuda` command uses the names
 * too, and the library exports only the CUDA API. */
static inline const char *check_tool_name(check_tool t) {
    switch (t) {
    case CHECK_TOOL_MEMCHECK: return "memcheck";
    case CHECK_TOOL_RACECHECK: return "racecheck";
    case CHECK_TOOL_SYNCCHECK: return "synccheck";
    case CHECK_TOOL_INITCHECK: return "initcheck";
    default: return NULL;
    }
}

/* The tool called name; CHECK_TOOL_NONE when none is. */
static inline check_tool check_tool_from_name(const char *name) {
    for (int t = CHECK_TOOL_MEMCHECK; name && t <= CHECK_TOOL_INITCHECK; t++) {
        const char *n = check_tool_name((check_tool)t);
        size_t i = 0;
        while (n[i] && n[i] == name[i]) i++;
        if (!n[i] && !name[i]) return (check_tool)t;
    }
    return CHECK_TOOL_NONE;
}

/* ---- launches ---- */

/* Where the program called into the library, as reports name it ("main [0x8db9] in app":
 * function, offset in its module, module), for a launch's reports; malloc'd, NULL when
 * the stack does not say. Called at the API call itself. */
char *check_host_site(check_state *st);
/* The program's call into the library among the backtrace frames[0..k) (taken inside the
 * library; frame 0, the caller of backtrace, is passed over): the index of the outermost
 * frame in one of the library's exported functions, whose name goes into name (without
 * nvcc's "__cuda" entry prefix and the per-thread-stream suffixes _ptsz, _ptds); -1 when
 * there is none. */
int check_api_frame(void *const *frames, int k, char *name, size_t n);

/* Describes the launch about to run and attaches the checker's observer to it
 * (L->observer). module is the kernel's PTX (for source lines and the callee containing
 * an instruction), kernel_name its mangled name, independent_threads whether the device
 * schedules the threads of a warp independently (compute capability 7.0 and later: the
 * lanes of a warp are then not in lockstep, which racecheck must take into account),
 * launch_site what check_host_site said when the program launched it (or NULL).
 * Returns NULL (and attaches nothing) when the tool has nothing to watch in kernels. */
check_launch *check_launch_begin(check_state *st, exec_launch *L, const ptx_module *module,
                                 const char *kernel_name, bool independent_threads,
                                 const char *launch_site);
/* After the grid: prints the launch's reports in block order. Returns true when the
 * launch must fail as it does under compute-sanitizer's memcheck (an invalid access was
 * found: the kernel is stopped and the error is an unspecified launch failure), and
 * then the executor's own fault message is not needed. Frees cl. */
bool check_launch_end(check_launch *cl, exec_fault_kind fault);

/* ---- allocations (memcheck: use after free, double free, leaks; initcheck: shadow) ---- */

/* kind and flags as in mem_alloc (mem/mem.h). api names the call ("cudaMalloc"). */
void check_on_alloc(check_state *st, uint64_t base, uint64_t size, uint32_t kind,
                    uint32_t flags, const char *api);
void check_on_free(check_state *st, uint64_t base);
/* A free the runtime refused: says why in the report of the API error that follows
 * (a double free when ptr was freed before). */
void check_on_bad_free(check_state *st, uint64_t ptr);

/* An API call was given a range that should be device memory and is not (side names it:
 * "destination", "source", "memory to set"): says so in the API error that follows. */
void check_on_bad_pointer(check_state *st, const char *side, const void *ptr, size_t bytes);

/* ---- host-side writes (initcheck) ---- */

/* [dst, dst+n) was written from the host side (memset, a copy from host memory). */
void check_on_host_write(check_state *st, const void *dst, size_t n);
/* [dst, dst+n) was copied from [src, src+n): it is initialised where the source was
 * (a source outside tracked device memory counts as initialised). */
void check_on_copy(check_state *st, void *dst, const void *src, size_t n);

/* ---- API errors ---- */

/* A CUDA API call is returning error code (its name and message as CUDA spells them):
 * "Program hit cudaErrorX (error N) due to "..." on CUDA API call to cudaY.". The call's
 * name is found from the host stack (the outermost exported function of the library). */
void check_on_api_error(check_state *st, int code, const char *error_name,
                        const char *error_message);

/* ---- the end ---- */

/* The context is being destroyed (cudaDeviceReset, or the process exiting): with leak
 * checking, report the device allocations in t that are still live. */
void check_on_context_end(check_state *st, mem_table *t);
/* The process is exiting: write the summaries (or the status file for the command). */
void check_finish(check_state *st);

#endif
