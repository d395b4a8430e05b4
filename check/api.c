/* check/api.c — CUDA API calls that fail, reported the way compute-sanitizer does:
 *
 *   ========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch
 *             failure" on CUDA API call to cudaDeviceSynchronize.
 *   =========     Host Frame: main [0x8d78] in misalignedAccess
 *
 * The runtime tells which error; which call it is comes from the host stack: the
 * outermost frame inside this library that is one of its exported functions is the
 * call the program made, and the frame above it is the program's call site.
 * cudaErrorNotReady is an answer, not an error (stream and event queries), and is not
 * reported.
 */
#include "internal.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <inttypes.h>
#include <link.h>
#include <string.h>

enum { CUDA_ERROR_NOT_READY = 600 };

/* The program's call into the library: the API function's name (without nvcc's "__"
 * entry prefix and the per-thread-stream suffixes) and the caller's frame. */
static bool find_api_call(char *name, size_t n, char *caller, size_t cn) {
    void *frames[64];
    int k = backtrace(frames, 64);
    Dl_info self;
    if (!dladdr((void *)find_api_call, &self)) return false;
    bool found = false;
    caller[0] = 0;
    for (int i = 1; i < k; i++) {
        Dl_info di;
        const ElfW(Sym) *sym = NULL;
        if (!dladdr1(frames[i], &di, (void **)&sym, RTLD_DL_SYMENT)) continue;
        if (di.dli_fbase != self.dli_fbase) {
            if (found) {
                const char *mod = di.dli_fname ? strrchr(di.dli_fname, '/') : NULL;
                mod = mod ? mod + 1 : di.dli_fname ? di.dli_fname : "?";
                uintptr_t off = (uintptr_t)frames[i] - (uintptr_t)di.dli_fbase;
                if (di.dli_sname)
                    snprintf(caller, cn, "%s [0x%" PRIxPTR "] in %s", di.dli_sname, off, mod);
                else
                    snprintf(caller, cn, "[0x%" PRIxPTR "] in %s", off, mod);
                break;
            }
            continue;
        }
        uintptr_t pc = (uintptr_t)frames[i];
        if (di.dli_sname && sym && pc - (uintptr_t)di.dli_saddr < sym->st_size) {
            const char *s = di.dli_sname;
            if (!strncmp(s, "__cuda", 6)) s += 2;
            snprintf(name, n, "%s", s);
            size_t len = strlen(name);
            if (len > 5 && (!strcmp(name + len - 5, "_ptsz") || !strcmp(name + len - 5, "_ptds")))
                name[len - 5] = 0;
            found = true;
        }
    }
    return found;
}

void check_on_api_error(check_state *st, int code, const char *error_name,
                        const char *error_message) {
    if (!st || code == 0 || code == CUDA_ERROR_NOT_READY) return;
    char api[128] = "", caller[256] = "", detail[200];
    if (!find_api_call(api, sizeof api, caller, sizeof caller))
        snprintf(api, sizeof api, "a CUDA API function");
    check_take_api_detail(detail, sizeof detail);
    check_buf b = {0};
    check_line(&b, "Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.",
               error_name ? error_name : "an error", code, error_message ? error_message : "",
               api);
    if (detail[0]) check_line(&b, "    %s", detail);
    if (caller[0]) check_line(&b, "    Host Frame: %s", caller);
    check_line(&b, "%s", "");
    check_emit(st, b.p);
    check_buf_free(&b);
}
