/* driver/stream.c — streams and events through the driver API. They are the runtime's
 * objects (a CUstream is a cudaStream_t, a CUevent a cudaEvent_t, and the handles
 * CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are the runtime's), so work of both APIs
 * orders on one stream, and each call has the runtime's semantics. Stream capture
 * builds the runtime's graphs, which cuGraphInstantiate and cuGraphLaunch run.
 */
#include "drv.h"

#define DRV_RT(call)                                                                       \
    do {                                                                                   \
        CUresult drv_r_ = drv_enter(NULL);                                                 \
        if (drv_r_) return drv_r_;                                                         \
        cudaError_t drv_saved_ = drv_rt_begin();                                           \
        return drv_rt_end(drv_saved_, (call));                                             \
    } while (0)

DRV_API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
    DRV_RT(cudaStreamCreateWithFlags((cudaStream_t *)phStream, Flags));
}

DRV_API CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority) {
    DRV_RT(cudaStreamCreateWithPriority((cudaStream_t *)phStream, flags, priority));
}

DRV_API CUresult cuStreamDestroy_v2(CUstream hStream) {
    if (!hStream || hStream == CU_STREAM_LEGACY || hStream == CU_STREAM_PER_THREAD)
        return CUDA_ERROR_INVALID_HANDLE;
    DRV_RT(cudaStreamDestroy((cudaStream_t)hStream));
}

DRV_API CUresult cuStreamSynchronize(CUstream hStream) {
    DRV_RT(cudaStreamSynchronize((cudaStream_t)hStream));
}
DRV_API CUresult cuStreamSynchronize_ptsz(CUstream hStream) {
    DRV_RT(cudaStreamSynchronize(DRV_PT(hStream)));
}

DRV_API CUresult cuStreamQuery(CUstream hStream) { DRV_RT(cudaStreamQuery((cudaStream_t)hStream)); }
DRV_API CUresult cuStreamQuery_ptsz(CUstream hStream) { DRV_RT(cudaStreamQuery(DRV_PT(hStream))); }

DRV_API CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
    DRV_RT(cudaStreamWaitEvent((cudaStream_t)hStream, (cudaEvent_t)hEvent, Flags));
}
DRV_API CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags) {
    DRV_RT(cudaStreamWaitEvent(DRV_PT(hStream), (cudaEvent_t)hEvent, Flags));
}

DRV_API CUresult cuStreamGetPriority(CUstream hStream, int *priority) {
    DRV_RT(cudaStreamGetPriority((cudaStream_t)hStream, priority));
}
DRV_API CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority) {
    DRV_RT(cudaStreamGetPriority(DRV_PT(hStream), priority));
}

DRV_API CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags) {
    DRV_RT(cudaStreamGetFlags((cudaStream_t)hStream, flags));
}
DRV_API CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags) {
    DRV_RT(cudaStreamGetFlags(DRV_PT(hStream), flags));
}

DRV_API CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId) {
    DRV_RT(cudaStreamGetId((cudaStream_t)hStream, streamId));
}
DRV_API CUresult cuStreamGetId_ptsz(CUstream hStream, unsigned long long *streamId) {
    DRV_RT(cudaStreamGetId(DRV_PT(hStream), streamId));
}

DRV_API CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device) {
    DRV_RT(cudaStreamGetDevice((cudaStream_t)hStream, device));
}
DRV_API CUresult cuStreamGetDevice_ptsz(CUstream hStream, CUdevice *device) {
    DRV_RT(cudaStreamGetDevice(DRV_PT(hStream), device));
}

/* A stream belongs to its device; that device's primary context names it. */
static CUresult drv_stream_ctx(cudaStream_t s, CUcontext *pctx) {
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_enter(NULL);
    if (r) return r;
    rt_context *c = rt_ctx();
    pthread_mutex_lock(&c->engine_lock);
    rt_stream *st = rt_stream_lookup(c, s);
    int dev = st ? st->device : 0;
    pthread_mutex_unlock(&c->engine_lock);
    if (!st) return CUDA_ERROR_INVALID_HANDLE;
    *pctx = (CUcontext)drv_primary(drv_get(), dev);
    return CUDA_SUCCESS;
}
DRV_API CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx) {
    return drv_stream_ctx((cudaStream_t)hStream, pctx);
}
DRV_API CUresult cuStreamGetCtx_ptsz(CUstream hStream, CUcontext *pctx) {
    return drv_stream_ctx(DRV_PT(hStream), pctx);
}

DRV_API CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                     unsigned int flags) {
    DRV_RT(cudaStreamAddCallback((cudaStream_t)hStream, (cudaStreamCallback_t)callback,
                                 userData, flags));
}
DRV_API CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback,
                                          void *userData, unsigned int flags) {
    DRV_RT(cudaStreamAddCallback(DRV_PT(hStream), (cudaStreamCallback_t)callback, userData,
                                 flags));
}

DRV_API CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
                                        unsigned int flags) {
    DRV_RT(cudaStreamAttachMemAsync((cudaStream_t)hStream, (void *)(uintptr_t)dptr, length,
                                    flags));
}
DRV_API CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
                                             unsigned int flags) {
    DRV_RT(cudaStreamAttachMemAsync(DRV_PT(hStream), (void *)(uintptr_t)dptr, length, flags));
}

/* ---- capture and graphs ---- */

DRV_API CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode) {
    DRV_RT(cudaStreamBeginCapture((cudaStream_t)hStream, (enum cudaStreamCaptureMode)mode));
}
DRV_API CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode) {
    DRV_RT(cudaStreamBeginCapture(DRV_PT(hStream), (enum cudaStreamCaptureMode)mode));
}

DRV_API CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph) {
    DRV_RT(cudaStreamEndCapture((cudaStream_t)hStream, (cudaGraph_t *)phGraph));
}
DRV_API CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph) {
    DRV_RT(cudaStreamEndCapture(DRV_PT(hStream), (cudaGraph_t *)phGraph));
}

DRV_API CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus) {
    DRV_RT(cudaStreamIsCapturing((cudaStream_t)hStream,
                                 (enum cudaStreamCaptureStatus *)captureStatus));
}
DRV_API CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus) {
    DRV_RT(cudaStreamIsCapturing(DRV_PT(hStream), (enum cudaStreamCaptureStatus *)captureStatus));
}

DRV_API CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags) {
    DRV_RT(cudaGraphCreate((cudaGraph_t *)phGraph, flags));
}

DRV_API CUresult cuGraphDestroy(CUgraph hGraph) { DRV_RT(cudaGraphDestroy((cudaGraph_t)hGraph)); }

DRV_API CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph,
                                             unsigned long long flags) {
    DRV_RT(cudaGraphInstantiateWithFlags((cudaGraphExec_t *)phGraphExec, (cudaGraph_t)hGraph,
                                         flags));
}

DRV_API CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
    DRV_RT(cudaGraphLaunch((cudaGraphExec_t)hGraphExec, (cudaStream_t)hStream));
}
DRV_API CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream) {
    DRV_RT(cudaGraphLaunch((cudaGraphExec_t)hGraphExec, DRV_PT(hStream)));
}

DRV_API CUresult cuGraphExecDestroy(CUgraphExec hGraphExec) {
    DRV_RT(cudaGraphExecDestroy((cudaGraphExec_t)hGraphExec));
}

/* ---- events ---- */

DRV_API CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
    DRV_RT(cudaEventCreateWithFlags((cudaEvent_t *)phEvent, Flags));
}

DRV_API CUresult cuEventDestroy_v2(CUevent hEvent) { DRV_RT(cudaEventDestroy((cudaEvent_t)hEvent)); }

DRV_API CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
    DRV_RT(cudaEventRecord((cudaEvent_t)hEvent, (cudaStream_t)hStream));
}
DRV_API CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream) {
    DRV_RT(cudaEventRecord((cudaEvent_t)hEvent, DRV_PT(hStream)));
}

DRV_API CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags) {
    DRV_RT(cudaEventRecordWithFlags((cudaEvent_t)hEvent, (cudaStream_t)hStream, flags));
}
DRV_API CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags) {
    DRV_RT(cudaEventRecordWithFlags((cudaEvent_t)hEvent, DRV_PT(hStream), flags));
}

DRV_API CUresult cuEventQuery(CUevent hEvent) { DRV_RT(cudaEventQuery((cudaEvent_t)hEvent)); }

DRV_API CUresult cuEventSynchronize(CUevent hEvent) {
    DRV_RT(cudaEventSynchronize((cudaEvent_t)hEvent));
}

DRV_API CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
    DRV_RT(cudaEventElapsedTime(pMilliseconds, (cudaEvent_t)hStart, (cudaEvent_t)hEnd));
}
