/* runtime/errors.c — the one table of CUDA error codes: each code's name
 * (cudaGetErrorName) and message (cudaGetErrorString), exactly as CUDA 13's runtime gives
 * them (tests/cuda/probes/expected/error_strings.out, printed by an H100). A code CUDA
 * does not know gives "unrecognized error code" from both, as CUDA does.
 */
#include "rt.h"

#include <stdlib.h>

typedef struct rt_error_row {
    int code;
    const char *name;
    const char *message;
} rt_error_row;

#define RT_ERR(e, msg) {e, #e, msg},
/* Sorted by code (bsearch). */
static const rt_error_row rt_errors[] = {
    RT_ERR(cudaSuccess, "no error") /* 0 */
    RT_ERR(cudaErrorInvalidValue, "invalid argument") /* 1 */
    RT_ERR(cudaErrorMemoryAllocation, "out of memory") /* 2 */
    RT_ERR(cudaErrorInitializationError, "initialization error") /* 3 */
    RT_ERR(cudaErrorCudartUnloading, "driver shutting down") /* 4 */
    RT_ERR(cudaErrorProfilerDisabled, "profiler disabled while using external profiling tool") /* 5 */
    RT_ERR(cudaErrorProfilerNotInitialized, "profiler not initialized: call cudaProfilerInitialize()") /* 6 */
    RT_ERR(cudaErrorProfilerAlreadyStarted, "profiler already started") /* 7 */
    RT_ERR(cudaErrorProfilerAlreadyStopped, "profiler already stopped") /* 8 */
    RT_ERR(cudaErrorInvalidConfiguration, "invalid configuration argument") /* 9 */
    RT_ERR(cudaErrorInvalidPitchValue, "invalid pitch argument") /* 12 */
    RT_ERR(cudaErrorInvalidSymbol, "invalid device symbol") /* 13 */
    RT_ERR(cudaErrorInvalidHostPointer, "invalid host pointer") /* 16 */
    RT_ERR(cudaErrorInvalidDevicePointer, "invalid device pointer") /* 17 */
    RT_ERR(cudaErrorInvalidTexture, "invalid texture reference") /* 18 */
    RT_ERR(cudaErrorInvalidTextureBinding, "texture is not bound to a pointer") /* 19 */
    RT_ERR(cudaErrorInvalidChannelDescriptor, "invalid channel descriptor") /* 20 */
    RT_ERR(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy") /* 21 */
    RT_ERR(cudaErrorAddressOfConstant, "invalid address of constant") /* 22 */
    RT_ERR(cudaErrorTextureFetchFailed, "fetch from texture failed") /* 23 */
    RT_ERR(cudaErrorTextureNotBound, "cannot fetch from a texture that is not bound") /* 24 */
    RT_ERR(cudaErrorSynchronizationError, "incorrect use of __syncthreads()") /* 25 */
    RT_ERR(cudaErrorInvalidFilterSetting, "linear filtering not supported for non-float type") /* 26 */
    RT_ERR(cudaErrorInvalidNormSetting, "read as normalized float not supported for data type") /* 27 */
    RT_ERR(cudaErrorMixedDeviceExecution, "device emulation mode and device execution mode cannot be mixed") /* 28 */
    RT_ERR(cudaErrorNotYetImplemented, "feature not yet implemented") /* 31 */
    RT_ERR(cudaErrorMemoryValueTooLarge, "memory size or pointer value too large to fit in 32 bit") /* 32 */
    RT_ERR(cudaErrorStubLibrary, "CUDA driver is a stub library") /* 34 */
    RT_ERR(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version") /* 35 */
    RT_ERR(cudaErrorCallRequiresNewerDriver, "API call is not supported in the installed CUDA driver") /* 36 */
    RT_ERR(cudaErrorInvalidSurface, "invalid surface reference") /* 37 */
    RT_ERR(cudaErrorDuplicateVariableName, "duplicate global variable looked up by string name") /* 43 */
    RT_ERR(cudaErrorDuplicateTextureName, "duplicate texture looked up by string name") /* 44 */
    RT_ERR(cudaErrorDuplicateSurfaceName, "duplicate surface looked up by string name") /* 45 */
    RT_ERR(cudaErrorDevicesUnavailable, "CUDA-capable device(s) is/are busy or unavailable") /* 46 */
    RT_ERR(cudaErrorIncompatibleDriverContext, "incompatible driver context") /* 49 */
    RT_ERR(cudaErrorMissingConfiguration, "__global__ function call is not configured") /* 52 */
    RT_ERR(cudaErrorPriorLaunchFailure, "unspecified launch failure in prior launch") /* 53 */
    RT_ERR(cudaErrorLaunchMaxDepthExceeded, "launch would exceed maximum depth of nested launches") /* 65 */
    RT_ERR(cudaErrorLaunchFileScopedTex, "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)") /* 66 */
    RT_ERR(cudaErrorLaunchFileScopedSurf, "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)") /* 67 */
    RT_ERR(cudaErrorSyncDepthExceeded, "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth") /* 68 */
    RT_ERR(cudaErrorLaunchPendingCountExceeded, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount") /* 69 */
    RT_ERR(cudaErrorInvalidDeviceFunction, "invalid device function") /* 98 */
    RT_ERR(cudaErrorNoDevice, "no CUDA-capable device is detected") /* 100 */
    RT_ERR(cudaErrorInvalidDevice, "invalid device ordinal") /* 101 */
    RT_ERR(cudaErrorDeviceNotLicensed, "device doesn't have valid Grid license") /* 102 */
    RT_ERR(cudaErrorSoftwareValidityNotEstablished, "integrity checks failed") /* 103 */
    RT_ERR(cudaErrorStartupFailure, "startup failure in cuda runtime") /* 127 */
    RT_ERR(cudaErrorInvalidKernelImage, "device kernel image is invalid") /* 200 */
    RT_ERR(cudaErrorDeviceUninitialized, "invalid device context") /* 201 */
    RT_ERR(cudaErrorMapBufferObjectFailed, "mapping of buffer object failed") /* 205 */
    RT_ERR(cudaErrorUnmapBufferObjectFailed, "unmapping of buffer object failed") /* 206 */
    RT_ERR(cudaErrorArrayIsMapped, "array is mapped") /* 207 */
    RT_ERR(cudaErrorAlreadyMapped, "resource already mapped") /* 208 */
    RT_ERR(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device") /* 209 */
    RT_ERR(cudaErrorAlreadyAcquired, "resource already acquired") /* 210 */
    RT_ERR(cudaErrorNotMapped, "resource not mapped") /* 211 */
    RT_ERR(cudaErrorNotMappedAsArray, "resource not mapped as array") /* 212 */
    RT_ERR(cudaErrorNotMappedAsPointer, "resource not mapped as pointer") /* 213 */
    RT_ERR(cudaErrorECCUncorrectable, "uncorrectable ECC error encountered") /* 214 */
    RT_ERR(cudaErrorUnsupportedLimit, "limit is not supported on this architecture") /* 215 */
    RT_ERR(cudaErrorDeviceAlreadyInUse, "exclusive-thread device already in use by a different thread") /* 216 */
    RT_ERR(cudaErrorPeerAccessUnsupported, "peer access is not supported between these two devices") /* 217 */
    RT_ERR(cudaErrorInvalidPtx, "a PTX JIT compilation failed") /* 218 */
    RT_ERR(cudaErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context") /* 219 */
    RT_ERR(cudaErrorNvlinkUncorrectable, "uncorrectable NVLink error detected during the execution") /* 220 */
    RT_ERR(cudaErrorJitCompilerNotFound, "PTX JIT compiler library not found") /* 221 */
    RT_ERR(cudaErrorUnsupportedPtxVersion, "the provided PTX was compiled with an unsupported toolchain.") /* 222 */
    RT_ERR(cudaErrorJitCompilationDisabled, "PTX JIT compilation was disabled") /* 223 */
    RT_ERR(cudaErrorUnsupportedExecAffinity, "the provided execution affinity is not supported") /* 224 */
    RT_ERR(cudaErrorUnsupportedDevSideSync, "the provided PTX contains unsupported call to cudaDeviceSynchronize") /* 225 */
    RT_ERR(cudaErrorContained, "Invalid access of peer GPU memory over nvlink or a hardware error") /* 226 */
    RT_ERR(cudaErrorInvalidSource, "device kernel image is invalid") /* 300 */
    RT_ERR(cudaErrorFileNotFound, "file not found") /* 301 */
    RT_ERR(cudaErrorSharedObjectSymbolNotFound, "shared object symbol not found") /* 302 */
    RT_ERR(cudaErrorSharedObjectInitFailed, "shared object initialization failed") /* 303 */
    RT_ERR(cudaErrorOperatingSystem, "OS call failed or operation not supported on this OS") /* 304 */
    RT_ERR(cudaErrorInvalidResourceHandle, "invalid resource handle") /* 400 */
    RT_ERR(cudaErrorIllegalState, "the operation cannot be performed in the present state") /* 401 */
    RT_ERR(cudaErrorLossyQuery, "attempted introspection would be semantically lossy") /* 402 */
    RT_ERR(cudaErrorSymbolNotFound, "named symbol not found") /* 500 */
    RT_ERR(cudaErrorNotReady, "device not ready") /* 600 */
    RT_ERR(cudaErrorIllegalAddress, "an illegal memory access was encountered") /* 700 */
    RT_ERR(cudaErrorLaunchOutOfResources, "too many resources requested for launch") /* 701 */
    RT_ERR(cudaErrorLaunchTimeout, "the launch timed out and was terminated") /* 702 */
    RT_ERR(cudaErrorLaunchIncompatibleTexturing, "launch uses incompatible texturing mode") /* 703 */
    RT_ERR(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled") /* 704 */
    RT_ERR(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled") /* 705 */
    RT_ERR(cudaErrorSetOnActiveProcess, "cannot set while device is active in this process") /* 708 */
    RT_ERR(cudaErrorContextIsDestroyed, "context is destroyed") /* 709 */
    RT_ERR(cudaErrorAssert, "device-side assert triggered") /* 710 */
    RT_ERR(cudaErrorTooManyPeers, "peer mapping resources exhausted") /* 711 */
    RT_ERR(cudaErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped") /* 712 */
    RT_ERR(cudaErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region") /* 713 */
    RT_ERR(cudaErrorHardwareStackError, "hardware stack error") /* 714 */
    RT_ERR(cudaErrorIllegalInstruction, "an illegal instruction was encountered") /* 715 */
    RT_ERR(cudaErrorMisalignedAddress, "misaligned address") /* 716 */
    RT_ERR(cudaErrorInvalidAddressSpace, "operation not supported on global/shared address space") /* 717 */
    RT_ERR(cudaErrorInvalidPc, "invalid program counter") /* 718 */
    RT_ERR(cudaErrorLaunchFailure, "unspecified launch failure") /* 719 */
    RT_ERR(cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch") /* 720 */
    RT_ERR(cudaErrorTensorMemoryLeak, "tensor memory not completely freed") /* 721 */
    RT_ERR(cudaErrorNotPermitted, "operation not permitted") /* 800 */
    RT_ERR(cudaErrorNotSupported, "operation not supported") /* 801 */
    RT_ERR(cudaErrorSystemNotReady, "system not yet initialized") /* 802 */
    RT_ERR(cudaErrorSystemDriverMismatch, "system has unsupported display driver / cuda driver combination") /* 803 */
    RT_ERR(cudaErrorCompatNotSupportedOnDevice, "forward compatibility was attempted on non supported HW") /* 804 */
    RT_ERR(cudaErrorMpsConnectionFailed, "MPS client failed to connect to the MPS control daemon or the MPS server") /* 805 */
    RT_ERR(cudaErrorMpsRpcFailure, "the remote procedural call between the MPS server and the MPS client failed") /* 806 */
    RT_ERR(cudaErrorMpsServerNotReady, "MPS server is not ready to accept new MPS client requests") /* 807 */
    RT_ERR(cudaErrorMpsMaxClientsReached, "the hardware resources required to create MPS client have been exhausted") /* 808 */
    RT_ERR(cudaErrorMpsMaxConnectionsReached, "the hardware resources required to support device connections have been exhausted") /* 809 */
    RT_ERR(cudaErrorMpsClientTerminated, "the MPS client has been terminated by the server") /* 810 */
    RT_ERR(cudaErrorCdpNotSupported, "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it") /* 811 */
    RT_ERR(cudaErrorCdpVersionMismatch, "unsupported interaction between different versions of CUDA Dynamic Parallelism") /* 812 */
    RT_ERR(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing") /* 900 */
    RT_ERR(cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture") /* 901 */
    RT_ERR(cudaErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences") /* 902 */
    RT_ERR(cudaErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began") /* 903 */
    RT_ERR(cudaErrorStreamCaptureUnjoined, "capturing stream has unjoined work") /* 904 */
    RT_ERR(cudaErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream") /* 905 */
    RT_ERR(cudaErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream") /* 906 */
    RT_ERR(cudaErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream") /* 907 */
    RT_ERR(cudaErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread") /* 908 */
    RT_ERR(cudaErrorTimeout, "wait operation timed out") /* 909 */
    RT_ERR(cudaErrorGraphExecUpdateFailure, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update") /* 910 */
    RT_ERR(cudaErrorExternalDevice, "an async error has occured in external entity outside of CUDA") /* 911 */
    RT_ERR(cudaErrorInvalidClusterSize, "a kernel launch error has occurred due to cluster misconfiguration") /* 912 */
    RT_ERR(cudaErrorFunctionNotLoaded, "the function handle is not loaded when calling an API that requires a loaded function") /* 913 */
    RT_ERR(cudaErrorInvalidResourceType, "one or more resources passed in are not valid resource types for the operation") /* 914 */
    RT_ERR(cudaErrorInvalidResourceConfiguration, "one or more resources are insufficient or non-applicable for the operation") /* 915 */
    RT_ERR(cudaErrorUnknown, "unknown error") /* 999 */
    RT_ERR(cudaErrorApiFailureBase, "api failure base") /* 10000 */
};
#undef RT_ERR

static const char rt_unrecognized[] = "unrecognized error code";

static int rt_error_cmp(const void *key, const void *row) {
    int k = *(const int *)key, r = ((const rt_error_row *)row)->code;
    return (k > r) - (k < r);
}

static const rt_error_row *rt_error_find(cudaError_t e) {
    int code = (int)e;
    return bsearch(&code, rt_errors, sizeof rt_errors / sizeof rt_errors[0], sizeof rt_errors[0],
                   rt_error_cmp);
}

const char *rt_error_name(cudaError_t e) {
    const rt_error_row *r = rt_error_find(e);
    return r ? r->name : NULL;
}

const char *rt_error_message(cudaError_t e) {
    const rt_error_row *r = rt_error_find(e);
    return r ? r->message : NULL;
}

cudaError_t rt_error_from_fault(exec_fault_kind kind) {
    switch (kind) {
    case EXEC_OK: return cudaSuccess;
    case EXEC_FAULT_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case EXEC_FAULT_MISALIGNED: return cudaErrorMisalignedAddress;
    case EXEC_FAULT_TRAP: return cudaErrorLaunchFailure;
    case EXEC_FAULT_ASSERT: return cudaErrorAssert;
    case EXEC_FAULT_ILLEGAL_INSTRUCTION: return cudaErrorIllegalInstruction;
    case EXEC_FAULT_STACK_OVERFLOW: return cudaErrorIllegalAddress; /* as an H100 says */
    case EXEC_FAULT_INVALID_PC: return cudaErrorInvalidPc;
    case EXEC_FAULT_ABORTED: return cudaErrorLaunchFailure;
    case EXEC_FAULT_TIMEOUT: return cudaErrorLaunchTimeout;
    case EXEC_FAULT_INVALID_ADDRESS_SPACE: return cudaErrorInvalidAddressSpace;
    }
    return cudaErrorLaunchFailure;
}

RT_API const char *cudaGetErrorName(cudaError_t error) {
    const char *name = rt_error_name(error);
    return name ? name : rt_unrecognized;
}

RT_API const char *cudaGetErrorString(cudaError_t error) {
    const char *msg = rt_error_message(error);
    return msg ? msg : rt_unrecognized;
}
