/* nvrtc/nvrtc.c — vcuda's libnvrtc.so.13: the toolkit's NVRTC, with one difference a
 * virtual GPU needs.
 *
 * Compiling CUDA C++ at run time needs no GPU, so every call goes to the toolkit's own
 * libnvrtc (loaded from the path the build found, or $VCUDA_NVRTC). But many programs
 * compile for the device's real architecture (--gpu-architecture=sm_90) and load the
 * cubin (nvrtcGetCUBIN): machine code only, which vcuda cannot run. So a compilation for
 * sm_XX is made for compute_XX instead, and the "cubin" handed back is a fatbin holding
 * that PTX, which vcuda's cuModuleLoadData loads like any image. The PTX, the log, name
 * expressions and lowered names are the toolkit's, unchanged.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvrtc.h>

#include "../driver/fatbin_write.h"

#define NV_API __attribute__((visibility("default")))

#ifndef VCUDA_NVRTC_LIB
#define VCUDA_NVRTC_LIB "libnvrtc.so.13"
#endif

/* ---- the toolkit's library ---- */

typedef struct nv_real {
    const char *(*GetErrorString)(nvrtcResult);
    nvrtcResult (*Version)(int *, int *);
    nvrtcResult (*GetNumSupportedArchs)(int *);
    nvrtcResult (*GetSupportedArchs)(int *);
    nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                 const char *const *, const char *const *);
    nvrtcResult (*DestroyProgram)(nvrtcProgram *);
    nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetPTX)(nvrtcProgram, char *);
    nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
    nvrtcResult (*GetLTOIRSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetLTOIR)(nvrtcProgram, char *);
    nvrtcResult (*GetOptiXIRSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetOptiXIR)(nvrtcProgram, char *);
    nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
    nvrtcResult (*AddNameExpression)(nvrtcProgram, const char *);
    nvrtcResult (*GetLoweredName)(nvrtcProgram, const char *, const char **);
    nvrtcResult (*GetPCHHeapSize)(size_t *);
    nvrtcResult (*SetPCHHeapSize)(size_t);
    nvrtcResult (*GetPCHCreateStatus)(nvrtcProgram);
    nvrtcResult (*GetPCHHeapSizeRequired)(nvrtcProgram, size_t *);
    nvrtcResult (*SetFlowCallback)(nvrtcProgram, int (*)(void *, void *), void *);
} nv_real;

static nv_real nv;
static bool nv_loaded;
static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void nv_load(void) {
    const char *path = getenv("VCUDA_NVRTC");
    if (!path || !*path) path = VCUDA_NVRTC_LIB;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "vcuda: NVRTC needs the CUDA toolkit's libnvrtc: %s\n", dlerror());
        return;
    }
#define NV_SYM(field, name)                                                                \
    if (!(*(void **)&nv.field = dlsym(h, name))) {                                         \
        fprintf(stderr, "vcuda: %s lacks %s\n", path, name);                               \
        return;                                                                            \
    }
    NV_SYM(GetErrorString, "nvrtcGetErrorString")
    NV_SYM(Version, "nvrtcVersion")
    NV_SYM(GetNumSupportedArchs, "nvrtcGetNumSupportedArchs")
    NV_SYM(GetSupportedArchs, "nvrtcGetSupportedArchs")
    NV_SYM(CreateProgram, "nvrtcCreateProgram")
    NV_SYM(DestroyProgram, "nvrtcDestroyProgram")
    NV_SYM(CompileProgram, "nvrtcCompileProgram")
    NV_SYM(GetPTXSize, "nvrtcGetPTXSize")
    NV_SYM(GetPTX, "nvrtcGetPTX")
    NV_SYM(GetCUBINSize, "nvrtcGetCUBINSize")
    NV_SYM(GetCUBIN, "nvrtcGetCUBIN")
    NV_SYM(GetLTOIRSize, "nvrtcGetLTOIRSize")
    NV_SYM(GetLTOIR, "nvrtcGetLTOIR")
    NV_SYM(GetOptiXIRSize, "nvrtcGetOptiXIRSize")
    NV_SYM(GetOptiXIR, "nvrtcGetOptiXIR")
    NV_SYM(GetProgramLogSize, "nvrtcGetProgramLogSize")
    NV_SYM(GetProgramLog, "nvrtcGetProgramLog")
    NV_SYM(AddNameExpression, "nvrtcAddNameExpression")
    NV_SYM(GetLoweredName, "nvrtcGetLoweredName")
    NV_SYM(GetPCHHeapSize, "nvrtcGetPCHHeapSize")
    NV_SYM(SetPCHHeapSize, "nvrtcSetPCHHeapSize")
    NV_SYM(GetPCHCreateStatus, "nvrtcGetPCHCreateStatus")
    NV_SYM(GetPCHHeapSizeRequired, "nvrtcGetPCHHeapSizeRequired")
    NV_SYM(SetFlowCallback, "nvrtcSetFlowCallback")
#undef NV_SYM
    nv_loaded = true;
}

static bool nv_ready(void) {
    pthread_once(&nv_once, nv_load);
    return nv_loaded;
}

/* ---- programs compiled for a real architecture ---- */

typedef struct nv_prog {
    nvrtcProgram prog;
    unsigned sass_arch;         /* the sm_XX asked for, 0 when none */
    uint8_t *image;             /* the fatbin holding the PTX, after a compilation */
    size_t image_size;
    struct nv_prog *next;
} nv_prog;

static nv_prog *nv_progs;
static pthread_mutex_t nv_lock = PTHREAD_MUTEX_INITIALIZER;

static nv_prog *nv_find(nvrtcProgram prog) {
    for (nv_prog *p = nv_progs; p; p = p->next)
        if (p->prog == prog) return p;
    return NULL;
}

static void nv_forget(nvrtcProgram prog) {
    pthread_mutex_lock(&nv_lock);
    for (nv_prog **pp = &nv_progs; *pp; pp = &(*pp)->next)
        if ((*pp)->prog == prog) {
            nv_prog *p = *pp;
            *pp = p->next;
            free(p->image);
            free(p);
            break;
        }
    pthread_mutex_unlock(&nv_lock);
}

/* The architecture value of an option that names one ("sm_90" in -arch=sm_90 or in the
 * option after -arch), or NULL. */
static const char *nv_arch_value(const char *opt, const char *next, bool *uses_next) {
    static const char *const names[] = {"-arch", "--gpu-architecture"};
    *uses_next = false;
    for (size_t i = 0; i < 2; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(opt, names[i], n) != 0) continue;
        if (opt[n] == '=') return opt + n + 1;
        if (opt[n] == 0 && next) {
            *uses_next = true;
            return next;
        }
    }
    return NULL;
}

NV_API nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions,
                                       const char *const *options) {
    if (!nv_ready()) return NVRTC_ERROR_INTERNAL_ERROR;
    if (numOptions < 0 || (numOptions && !options)) return NVRTC_ERROR_INVALID_INPUT;
    /* the same options, sm_XX turned into compute_XX */
    const char **opts = calloc((size_t)numOptions + 1, sizeof *opts);
    char **owned = calloc((size_t)numOptions + 1, sizeof *owned);
    if (!opts || !owned) {
        free(opts);
        free(owned);
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    unsigned sass = 0;
    for (int i = 0; i < numOptions; i++) {
        opts[i] = options[i];
        bool uses_next;
        const char *v = nv_arch_value(options[i], i + 1 < numOptions ? options[i + 1] : NULL,
                                      &uses_next);
        if (!v || strncmp(v, "sm_", 3) != 0) continue;
        sass = (unsigned)strtoul(v + 3, NULL, 10);
        size_t prefix = uses_next ? 0 : (size_t)(v - options[i]);
        char *o = malloc(prefix + strlen(v) + 8);
        if (!o) continue;
        sprintf(o, "%.*scompute_%s", (int)prefix, options[i], v + 3);
        owned[i] = o;
        if (uses_next) {
            opts[++i] = o;
            owned[i] = o;
            owned[i - 1] = NULL;
        } else {
            opts[i] = o;
        }
    }
    nvrtcResult r = nv.CompileProgram(prog, numOptions, opts);
    for (int i = 0; i < numOptions; i++) free(owned[i]);
    free(opts);
    free(owned);
    nv_forget(prog);
    if (r != NVRTC_SUCCESS || !sass) return r;
    /* keep the PTX as the program's "cubin" */
    size_t size = 0;
    if (nv.GetPTXSize(prog, &size) != NVRTC_SUCCESS || !size) return r;
    char *ptx = malloc(size);
    nv_prog *p = calloc(1, sizeof *p);
    if (!ptx || !p || nv.GetPTX(prog, ptx) != NVRTC_SUCCESS) {
        free(ptx);
        free(p);
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    p->prog = prog;
    p->sass_arch = sass;
    p->image = drv_fatbin_from_ptx(ptx, strnlen(ptx, size), sass, &p->image_size);
    free(ptx);
    if (!p->image) {
        free(p);
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&nv_lock);
    p->next = nv_progs;
    nv_progs = p;
    pthread_mutex_unlock(&nv_lock);
    return r;
}

NV_API nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet) {
    if (!nv_ready()) return NVRTC_ERROR_INTERNAL_ERROR;
    pthread_mutex_lock(&nv_lock);
    nv_prog *p = nv_find(prog);
    size_t size = p ? p->image_size : 0;
    pthread_mutex_unlock(&nv_lock);
    if (!p) return nv.GetCUBINSize(prog, cubinSizeRet); /* compiled for PTX only: refused */
    if (!cubinSizeRet) return NVRTC_ERROR_INVALID_INPUT;
    *cubinSizeRet = size;
    return NVRTC_SUCCESS;
}

NV_API nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin) {
    if (!nv_ready()) return NVRTC_ERROR_INTERNAL_ERROR;
    pthread_mutex_lock(&nv_lock);
    nv_prog *p = nv_find(prog);
    if (p && cubin) memcpy(cubin, p->image, p->image_size);
    pthread_mutex_unlock(&nv_lock);
    if (!p) return nv.GetCUBIN(prog, cubin);
    return cubin ? NVRTC_SUCCESS : NVRTC_ERROR_INVALID_INPUT;
}

NV_API nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog) {
    if (!nv_ready()) return NVRTC_ERROR_INTERNAL_ERROR;
    if (prog) nv_forget(*prog);
    return nv.DestroyProgram(prog);
}

/* ---- everything else: the toolkit's ---- */

NV_API const char *nvrtcGetErrorString(nvrtcResult result) {
    return nv_ready() ? nv.GetErrorString(result) : "NVRTC_ERROR_INTERNAL_ERROR";
}

#define NV_FORWARD(name, field, params, args)                                              \
    NV_API nvrtcResult name params {                                                       \
        return nv_ready() ? nv.field args : NVRTC_ERROR_INTERNAL_ERROR;                    \
    }

NV_FORWARD(nvrtcVersion, Version, (int *major, int *minor), (major, minor))
NV_FORWARD(nvrtcGetNumSupportedArchs, GetNumSupportedArchs, (int *n), (n))
NV_FORWARD(nvrtcGetSupportedArchs, GetSupportedArchs, (int *a), (a))
NV_FORWARD(nvrtcCreateProgram, CreateProgram,
           (nvrtcProgram * prog, const char *src, const char *name, int numHeaders,
            const char *const *headers, const char *const *includeNames),
           (prog, src, name, numHeaders, headers, includeNames))
NV_FORWARD(nvrtcGetPTXSize, GetPTXSize, (nvrtcProgram prog, size_t *s), (prog, s))
NV_FORWARD(nvrtcGetPTX, GetPTX, (nvrtcProgram prog, char *ptx), (prog, ptx))
NV_FORWARD(nvrtcGetLTOIRSize, GetLTOIRSize, (nvrtcProgram prog, size_t *s), (prog, s))
NV_FORWARD(nvrtcGetLTOIR, GetLTOIR, (nvrtcProgram prog, char *out), (prog, out))
NV_FORWARD(nvrtcGetOptiXIRSize, GetOptiXIRSize, (nvrtcProgram prog, size_t *s), (prog, s))
NV_FORWARD(nvrtcGetOptiXIR, GetOptiXIR, (nvrtcProgram prog, char *out), (prog, out))
NV_FORWARD(nvrtcGetProgramLogSize, GetProgramLogSize, (nvrtcProgram prog, size_t *s), (prog, s))
NV_FORWARD(nvrtcGetProgramLog, GetProgramLog, (nvrtcProgram prog, char *log), (prog, log))
NV_FORWARD(nvrtcAddNameExpression, AddNameExpression, (nvrtcProgram prog, const char *e),
           (prog, e))
NV_FORWARD(nvrtcGetLoweredName, GetLoweredName,
           (nvrtcProgram prog, const char *e, const char **lowered), (prog, e, lowered))
NV_FORWARD(nvrtcGetPCHHeapSize, GetPCHHeapSize, (size_t *ret), (ret))
NV_FORWARD(nvrtcSetPCHHeapSize, SetPCHHeapSize, (size_t size), (size))
NV_FORWARD(nvrtcGetPCHCreateStatus, GetPCHCreateStatus, (nvrtcProgram prog), (prog))
NV_FORWARD(nvrtcGetPCHHeapSizeRequired, GetPCHHeapSizeRequired, (nvrtcProgram prog, size_t *s),
           (prog, s))
NV_FORWARD(nvrtcSetFlowCallback, SetFlowCallback,
           (nvrtcProgram prog, int (*cb)(void *, void *), void *payload), (prog, cb, payload))
