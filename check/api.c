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

/* The program's frames above the library, one "name [0xoffset] in module" per line, from
 * the call into the library up to main (compute-sanitizer's host backtrace). */
static void host_frames(void *const *frames, int from, int k, char *out, size_t n) {
    size_t len = 0;
    out[0] = 0;
    for (int i = from; i < k && len + 1 < n; i++) {
        Dl_info di;
        if (!dladdr(frames[i], &di)) break;
        const char *mod = di.dli_fname ? strrchr(di.dli_fname, '/') : NULL;
        mod = mod ? mod + 1 : di.dli_fname && *di.dli_fname ? di.dli_fname : "?";
        uintptr_t off = (uintptr_t)frames[i] - (uintptr_t)di.dli_fbase;
        char fn[256] = "";
        /* pc - 1: the return address may already be past the calling function's end */
        if (!check_host_symbol(di.dli_fname, (uintptr_t)di.dli_fbase, (uintptr_t)frames[i] - 1,
                               fn, sizeof fn) && di.dli_sname)
            ptx_demangle_into(di.dli_sname, PTX_DEMANGLE_SANITIZER, fn, sizeof fn);
        int w = snprintf(out + len, n - len, "%s%s%s[0x%" PRIxPTR "] in %s", len ? "\n" : "", fn,
                         fn[0] ? " " : "", off, mod);
        if (w < 0 || (size_t)w >= n - len) break;
        len += (size_t)w;
        if (!strcmp(fn, "main")) break;
    }
}

int check_api_frame(void *const *frames, int k, char *name, size_t n) {
    Dl_info self;
    if (!dladdr((void *)check_api_frame, &self)) return -1;
    int api_frame = -1;
    for (int i = 1; i < k; i++) {
        Dl_info di;
        const ElfW(Sym) *sym = NULL;
        if (!dladdr1(frames[i], &di, (void **)&sym, RTLD_DL_SYMENT)) continue;
        if (di.dli_fbase != self.dli_fbase) {
            if (api_frame >= 0) break;
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
            api_frame = i;
        }
    }
    return api_frame;
}

/* The program's call into the library: the API function's name and the program's frames
 * above it. */
static bool find_api_call(char *name, size_t n, char *caller, size_t cn) {
    void *frames[64];
    int k = backtrace(frames, 64);
    caller[0] = 0;
    int api_frame = check_api_frame(frames, k, name, n);
    if (api_frame < 0) return false;
    host_frames(frames, api_frame + 1, k, caller, cn);
    return true;
}

char *check_host_site(check_state *st) {
    char api[128], caller[1024];
    if (!st || !find_api_call(api, sizeof api, caller, sizeof caller) || !caller[0]) return NULL;
    return strdup(caller);
}

/* "Host Frame: ..." lines for each frame of a host_frames() text. */
void check_host_frame_lines(check_buf *b, const char *frames) {
    while (frames && *frames) {
        const char *nl = strchr(frames, '\n');
        int len = nl ? (int)(nl - frames) : (int)strlen(frames);
        check_line(b, "        Host Frame: %.*s", len, frames);
        frames = nl ? nl + 1 : NULL;
    }
}

void check_on_api_error(check_state *st, int code, const char *error_name,
                        const char *error_message) {
    if (!st || code == 0 || code == CUDA_ERROR_NOT_READY) return;
    char api[128] = "", caller[1024] = "", detail[200];
    if (!find_api_call(api, sizeof api, caller, sizeof caller))
        snprintf(api, sizeof api, "a CUDA API function");
    check_take_api_detail(detail, sizeof detail);
    check_buf b = {0};
    check_line(&b, "Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.",
               error_name ? error_name : "an error", code, error_message ? error_message : "",
               api);
    if (detail[0]) check_line(&b, "    %s", detail);
    if (caller[0]) {
        check_line(&b, "    Saved host backtrace up to driver entry point at error");
        check_host_frame_lines(&b, caller);
    }
    check_line(&b, "%s", "");
    check_emit(st, b.p);
    check_buf_free(&b);
}
