/* driver/ipc.c — the driver API's interprocess calls (cuIpcGetMemHandle,
 * cuIpcOpenMemHandle, cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle):
 * the runtime's IPC (runtime/ipc.c) under the driver's names. The handles are the same
 * bytes (CUipcMemHandle is cudaIpcMemHandle_t), so either API opens what the other
 * exported; errors are the runtime's with the driver's numbers, as on a GPU
 * (tests/cuda/multigpu/expected/ipc_driver.out).
 */
#include "drv.h"

#include <assert.h>
#include <string.h>

static_assert(sizeof(CUipcMemHandle) == sizeof(cudaIpcMemHandle_t), "IPC handle size");
static_assert(sizeof(CUipcEventHandle) == sizeof(cudaIpcEventHandle_t), "IPC handle size");
static_assert((unsigned)CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS ==
                  (unsigned)cudaIpcMemLazyEnablePeerAccess, "IPC flag");

/* A runtime call made for the driver: the context checked, the runtime's last error kept. */
#define DRV_IPC(call)                                                                      \
    do {                                                                                   \
        CUresult drv_r_ = drv_enter(NULL);                                                 \
        if (drv_r_) return drv_r_;                                                         \
        cudaError_t drv_saved_ = drv_rt_begin();                                           \
        return drv_rt_end(drv_saved_, (call));                                             \
    } while (0)

DRV_API CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr) {
    DRV_IPC(cudaIpcGetMemHandle((cudaIpcMemHandle_t *)pHandle, (void *)(uintptr_t)dptr));
}

DRV_API CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle,
                                       unsigned int Flags) {
    if (!pdptr) return CUDA_ERROR_INVALID_VALUE;
    cudaIpcMemHandle_t h;
    memcpy(&h, &handle, sizeof h);
    void *p = NULL;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    r = drv_rt_end(saved, cudaIpcOpenMemHandle(&p, h, Flags));
    if (r == CUDA_SUCCESS) *pdptr = (CUdeviceptr)(uintptr_t)p;
    return r;
}

DRV_API CUresult cuIpcCloseMemHandle(CUdeviceptr dptr) {
    DRV_IPC(cudaIpcCloseMemHandle((void *)(uintptr_t)dptr));
}

DRV_API CUresult cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event) {
    DRV_IPC(cudaIpcGetEventHandle((cudaIpcEventHandle_t *)pHandle, (cudaEvent_t)event));
}

DRV_API CUresult cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle) {
    cudaIpcEventHandle_t h;
    memcpy(&h, &handle, sizeof h);
    DRV_IPC(cudaIpcOpenEventHandle((cudaEvent_t *)phEvent, h));
}
