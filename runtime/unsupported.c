/* runtime/unsupported.c — the entry points of cuda_runtime_api.h that vcuda does not
 * implement. Each one exists so that every program the CUDA headers compile links; a call
 * returns cudaErrorNotSupported (recorded as the thread's last error) and the first call
 * of each function says so on stderr, naming it. README.md ("What is not supported")
 * lists them, and tests/api/check_exports.py checks that every function the toolkit's
 * header declares is exported, and that each one listed here is in the README.
 *
 * The stubs keep the header's exact signatures (the header is included, so a mismatch is
 * a compile error); their parameters are unused by design.
 */
#include "rt.h"

#include <stdatomic.h>
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wunused-parameter"

/* The one-time message, then the error. */
static cudaError_t rt_unsupported(const char *name, atomic_flag *said) {
    if (!atomic_flag_test_and_set(said))
        fprintf(stderr, "vcuda: %s is not supported (returns cudaErrorNotSupported)\n", name);
    return rt_record(cudaErrorNotSupported);
}

#define RT_UNSUPPORTED(name, params)                                                        \
    RT_API cudaError_t name params {                                                        \
        static atomic_flag said = ATOMIC_FLAG_INIT;                                         \
        return rt_unsupported(#name, &said);                                                \
    }


/* ---- Graphs and stream capture ---- */

/* ---- Batched 3D copies ---- */
RT_UNSUPPORTED(cudaMemcpy3DBatchAsync, (size_t numOps, struct cudaMemcpy3DBatchOp *opList, unsigned long long flags, cudaStream_t stream))
RT_UNSUPPORTED(cudaMemcpy3DBatchAsync_ptsz, (size_t numOps, struct cudaMemcpy3DBatchOp *opList, unsigned long long flags, cudaStream_t stream))

/* ---- Several processes and devices (IPC, peers) ---- */
RT_UNSUPPORTED(cudaMemPoolExportPointer, (struct cudaMemPoolPtrExportData *exportData, void *ptr))
RT_UNSUPPORTED(cudaMemPoolExportToShareableHandle, (void *shareableHandle, cudaMemPool_t memPool, enum cudaMemAllocationHandleType handleType, unsigned int flags))
RT_UNSUPPORTED(cudaMemPoolImportFromShareableHandle, (cudaMemPool_t *memPool, void *shareableHandle, enum cudaMemAllocationHandleType handleType, unsigned int flags))
RT_UNSUPPORTED(cudaMemPoolImportPointer, (void **ptr, cudaMemPool_t memPool, struct cudaMemPoolPtrExportData *exportData))
RT_UNSUPPORTED(cudaDeviceGetHostAtomicCapabilities, (unsigned int *capabilities, const enum cudaAtomicOperation* operations, unsigned int count, int device))
RT_UNSUPPORTED(cudaDeviceGetP2PAtomicCapabilities, (unsigned int *capabilities, const enum cudaAtomicOperation *operations, unsigned int count, int srcDevice, int dstDevice))

/* ---- Interoperability with other APIs (graphics, external memory and semaphores, NvSci) ---- */
RT_UNSUPPORTED(cudaDestroyExternalMemory, (cudaExternalMemory_t extMem))
RT_UNSUPPORTED(cudaDestroyExternalSemaphore, (cudaExternalSemaphore_t extSem))
RT_UNSUPPORTED(cudaDeviceGetNvSciSyncAttributes, (void *nvSciSyncAttrList, int device, int flags))
RT_UNSUPPORTED(cudaExternalMemoryGetMappedBuffer, (void **devPtr, cudaExternalMemory_t extMem, const struct cudaExternalMemoryBufferDesc *bufferDesc))
RT_UNSUPPORTED(cudaExternalMemoryGetMappedMipmappedArray, (cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem, const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc))
RT_UNSUPPORTED(cudaGraphicsMapResources, (int count, cudaGraphicsResource_t *resources, cudaStream_t stream))
RT_UNSUPPORTED(cudaGraphicsResourceGetMappedMipmappedArray, (cudaMipmappedArray_t *mipmappedArray, cudaGraphicsResource_t resource))
RT_UNSUPPORTED(cudaGraphicsResourceGetMappedPointer, (void **devPtr, size_t *size, cudaGraphicsResource_t resource))
RT_UNSUPPORTED(cudaGraphicsResourceSetMapFlags, (cudaGraphicsResource_t resource, unsigned int flags))
RT_UNSUPPORTED(cudaGraphicsSubResourceGetMappedArray, (cudaArray_t *array, cudaGraphicsResource_t resource, unsigned int arrayIndex, unsigned int mipLevel))
RT_UNSUPPORTED(cudaGraphicsUnmapResources, (int count, cudaGraphicsResource_t *resources, cudaStream_t stream))
RT_UNSUPPORTED(cudaGraphicsUnregisterResource, (cudaGraphicsResource_t resource))
RT_UNSUPPORTED(cudaImportExternalMemory, (cudaExternalMemory_t *extMem_out, const struct cudaExternalMemoryHandleDesc *memHandleDesc))
RT_UNSUPPORTED(cudaImportExternalSemaphore, (cudaExternalSemaphore_t *extSem_out, const struct cudaExternalSemaphoreHandleDesc *semHandleDesc))
RT_UNSUPPORTED(cudaSignalExternalSemaphoresAsync, (const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems, cudaStream_t stream))
RT_UNSUPPORTED(cudaSignalExternalSemaphoresAsync_ptsz, (const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems, cudaStream_t stream))
RT_UNSUPPORTED(cudaWaitExternalSemaphoresAsync, (const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems, cudaStream_t stream))
RT_UNSUPPORTED(cudaWaitExternalSemaphoresAsync_ptsz, (const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems, cudaStream_t stream))

/* ---- Library management (cudaLibrary*) ---- */
RT_UNSUPPORTED(cudaGetExportTable, (const void **ppExportTable, const cudaUUID_t *pExportTableId))
RT_UNSUPPORTED(cudaLibraryEnumerateKernels, (cudaKernel_t *kernels, unsigned int numKernels, cudaLibrary_t lib))
RT_UNSUPPORTED(cudaLibraryGetGlobal, (void **dptr, size_t *bytes, cudaLibrary_t library, const char *name))
RT_UNSUPPORTED(cudaLibraryGetKernel, (cudaKernel_t *pKernel, cudaLibrary_t library, const char *name))
RT_UNSUPPORTED(cudaLibraryGetKernelCount, (unsigned int *count, cudaLibrary_t lib))
RT_UNSUPPORTED(cudaLibraryGetManaged, (void **dptr, size_t *bytes, cudaLibrary_t library, const char *name))
RT_UNSUPPORTED(cudaLibraryGetUnifiedFunction, (void **fptr, cudaLibrary_t library, const char *symbol))
RT_UNSUPPORTED(cudaLibraryLoadData, (cudaLibrary_t *library, const void *code, enum cudaJitOption *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, enum cudaLibraryOption *libraryOptions, void** libraryOptionValues, unsigned int numLibraryOptions))
RT_UNSUPPORTED(cudaLibraryLoadFromFile, (cudaLibrary_t *library, const char *fileName, enum cudaJitOption *jitOptions, void **jitOptionsValues, unsigned int numJitOptions, enum cudaLibraryOption *libraryOptions, void **libraryOptionValues, unsigned int numLibraryOptions))
RT_UNSUPPORTED(cudaLibraryUnload, (cudaLibrary_t library))

/* ---- Error logs ---- */
RT_UNSUPPORTED(cudaLogsCurrent, (cudaLogIterator *iterator_out, unsigned int flags))
RT_UNSUPPORTED(cudaLogsDumpToFile, (cudaLogIterator *iterator, const char *pathToFile, unsigned int flags))
RT_UNSUPPORTED(cudaLogsDumpToMemory, (cudaLogIterator *iterator, char *buffer, size_t *size, unsigned int flags))
RT_UNSUPPORTED(cudaLogsRegisterCallback, (cudaLogsCallback_t callbackFunc, void *userData, cudaLogsCallbackHandle *callback_out))
RT_UNSUPPORTED(cudaLogsUnregisterCallback, (cudaLogsCallbackHandle callback))

/* ---- CUDA arrays: sparse and multi-planar arrays, memory requirements ---- */
RT_UNSUPPORTED(cudaArrayGetMemoryRequirements, (struct cudaArrayMemoryRequirements *memoryRequirements, cudaArray_t array, int device))
RT_UNSUPPORTED(cudaArrayGetPlane, (cudaArray_t *pPlaneArray, cudaArray_t hArray, unsigned int planeIdx))
RT_UNSUPPORTED(cudaArrayGetSparseProperties, (struct cudaArraySparseProperties *sparseProperties, cudaArray_t array))
RT_UNSUPPORTED(cudaDeviceGetTexture1DLinearMaxWidth, (size_t *maxWidthInElements, const struct cudaChannelFormatDesc *fmtDesc, int device))
RT_UNSUPPORTED(cudaMipmappedArrayGetMemoryRequirements, (struct cudaArrayMemoryRequirements *memoryRequirements, cudaMipmappedArray_t mipmap, int device))
RT_UNSUPPORTED(cudaMipmappedArrayGetSparseProperties, (struct cudaArraySparseProperties *sparseProperties, cudaMipmappedArray_t mipmap))
