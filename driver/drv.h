/* driver/drv.h — what the files of the driver layer share.
 *
 * The driver API (libcuda.so.1) is a second face of the runtime's objects, not a copy of
 * them: a CUstream is the runtime's stream, a CUevent its event, a CUfunction its kernel
 * (rt_func), device memory the same allocations, and the device's primary context is the
 * context the runtime uses. What the driver adds is its own bookkeeping: whether cuInit
 * ran, the contexts a program made and each host thread's stack of current contexts, and
 * the modules, libraries and link states it loaded from PTX or fatbin images at run time.
 *
 * Driver calls that reach the runtime's API functions do not disturb the runtime's last
 * error (cudaGetLastError): drv_rt_begin/drv_rt_end put it back.
 */
#ifndef VCUDA_DRIVER_DRV_H
#define VCUDA_DRIVER_DRV_H

#include <cuda.h>

#include "../runtime/rt.h"

/* Marks a function of libcuda's ABI (gen_api.py finds the implemented ones by it). */
#define DRV_API __attribute__((visibility("default")))

/* A CUdeviceptr as a pointer; a stream of a per-thread (_ptds, _ptsz) call, the calling
 * thread's default stream standing for the null one. */
#define DRV_PTR(d) ((void *)(uintptr_t)(d))
#define DRV_PT(s) ((s) ? (cudaStream_t)(s) : cudaStreamPerThread)

/* ---- contexts (context.c) ---- */

typedef struct drv_ctx {
    bool primary;               /* the device's primary context (the runtime's) */
    int device;                 /* the device it was made on */
    bool destroyed;
    unsigned flags;             /* CU_CTX_* */
    unsigned long long id;
} drv_ctx;

/* ---- modules (module.c) ---- */

typedef struct drv_module {
    rt_module *mod;             /* in the runtime's module list; its image is ours */
    uint8_t *image;             /* the fatbin container(s) the module loads (owned) */
    drv_ctx *ctx;
    rt_func **funcs;            /* kernels handed out by cuModuleGetFunction */
    size_t nfuncs, funcs_cap;
    bool library;               /* made by cuLibraryLoad*: unloaded with the library */
} drv_module;

/* ---- the driver's state (state.c) ---- */

typedef struct drv_state {
    pthread_mutex_t lock;       /* guards what follows; taken before the runtime's lock */
    bool initialised;           /* cuInit succeeded */
    CUresult init_error;        /* cuInit failed: what every call returns */
    drv_ctx primary[GPU_MAX_DEVICES]; /* each device's (drv_primary) */
    unsigned primary_refs[GPU_MAX_DEVICES]; /* cuDevicePrimaryCtxRetain minus Release */
    bool device_by_driver;      /* the driver, not the runtime, brought the device up: the
                                 * primary context is current only where a call made it so */
    unsigned long long next_ctx_id;
    unsigned next_module;
    rt_ptrmap contexts;         /* live created contexts (drv_ctx*) */
    rt_ptrmap modules;          /* live modules (drv_module*) */
    rt_ptrmap links;            /* live link states */
} drv_state;

drv_state *drv_get(void);

/* The CUresult for a runtime error (the codes CUDA shares keep their number). */
CUresult drv_from_rt(cudaError_t e);
/* Around calls into the runtime's API: keep the runtime's last error as it was. */
cudaError_t drv_rt_begin(void);
CUresult drv_rt_end(cudaError_t saved, cudaError_t e);
/* A one-line message on stderr naming the call and why, and the error it returns. */
CUresult drv_fail(CUresult r, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- arrays (array.c) ---- */

/* CUarray_format and a channel count as the runtime's channel descriptor
 * (CUDA_ERROR_INVALID_VALUE for others). */
CUresult drv_array_format(CUarray_format f, unsigned n, struct cudaChannelFormatDesc *d);
/* The runtime's error for a bad channel descriptor is an invalid value to the driver. */
cudaError_t drv_array_channel_error(cudaError_t e);

/* cuInit has run (CUDA_ERROR_NOT_INITIALIZED, or cuInit's own failure, if not). */
CUresult drv_initialised(void);
/* The start of a call that needs a current context: the driver initialised, a context
 * current (CUDA_ERROR_INVALID_CONTEXT if none) and the device usable (the sticky error
 * of a faulted device, as the runtime reports it). *ctx: the current context. */
CUresult drv_enter(drv_ctx **ctx);
/* Bring the device up for a driver call (rt_enter_device), noting when the driver was
 * first; the runtime's error on failure. */
cudaError_t drv_bring_up(rt_context *c);
/* Has the runtime brought the device up (so its primary context is current on the
 * threads without one of their own)? */
bool drv_runtime_up(rt_context *c);
/* The calling thread's current context, or NULL (context.c). */
drv_ctx *drv_current(void);
/* Is h a context handle the driver made (the primary one or a live created one)? */
bool drv_ctx_valid(drv_state *s, CUcontext h);
/* A device ordinal check: CUDA_ERROR_INVALID_DEVICE unless the runtime has that device. */
CUresult drv_device_check(CUdevice dev);
/* Device dev's primary context (dev checked). */
drv_ctx *drv_primary(drv_state *s, int dev);
/* A context has become current on this thread: the runtime's current device follows it
 * (cudaGetDevice names the device of the current context, as with CUDA). */
void drv_follow(const drv_ctx *x);

/* ---- virtual memory management (vmm.c) ---- */

/* The range one cuMemMap mapped that holds addr (what cuMemGetAddressRange answers for
 * it, where the allocation table has a run of adjacent mappings); false if none. */
bool drv_vmm_mapping(uint64_t addr, uint64_t *base, uint64_t *size);

/* ---- modules and kernels (module.c, image.c) ---- */

/* Load an image (PTX text, fatbin, fatbin wrapper, a linked image of cuLinkComplete) as
 * a module of ctx. log/errlog (may be NULL): what the PTX front end said. */
CUresult drv_module_load(const void *image, const char *name, drv_ctx *ctx, char *info,
                         size_t infolen, char *errlog, size_t errlen, drv_module **out);
CUresult drv_module_unload(drv_module *dm);
/* The kernel name of dm, made once (CUDA_ERROR_NOT_FOUND when the PTX has no such entry). */
CUresult drv_module_function(drv_module *dm, const char *name, rt_func **out);
/* The kernel a CUfunction names (any the runtime knows, registered or loaded), resolved
 * on the device; CUDA_ERROR_INVALID_HANDLE for an unknown handle. Takes the runtime's
 * lock itself. */
CUresult drv_func_lookup(CUfunction f, rt_func **out);

/* What kind of image data is (image.c). */
typedef enum drv_image_kind {
    DRV_IMAGE_PTX, DRV_IMAGE_FATBIN, DRV_IMAGE_WRAPPER, DRV_IMAGE_ELF, DRV_IMAGE_LINKED
} drv_image_kind;
drv_image_kind drv_image_classify(const void *data);
/* A linked image: the containers of the parts, in one buffer (malloc'd). */
uint8_t *drv_image_linked(uint8_t *const *parts, const size_t *sizes, size_t n, size_t *size);
/* The containers of a linked image (pointers into it); the count, or -1 if malformed. */
long drv_image_linked_parts(const uint8_t *image, const uint8_t ***parts, size_t **sizes);

/* ---- JIT options (module.c): the log buffers of cuModuleLoadDataEx and cuLink* ---- */

typedef struct drv_jit_logs {
    char *info, *error;
    size_t info_size, error_size;   /* buffer sizes in bytes (0: none) */
    void **info_out, **error_out;   /* the option values the used sizes go back to */
} drv_jit_logs;
CUresult drv_jit_options(unsigned n, const CUjit_option *opts, void **values, drv_jit_logs *l);
void drv_jit_logs_done(drv_jit_logs *l);

#endif
