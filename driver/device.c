/* driver/device.c — the devices as the driver API shows them: the runtime's devices (an
 * ordinal is a CUdevice), with the same properties and attributes the runtime reports
 * (CU_DEVICE_ATTRIBUTE_* and cudaDevAttr* are numbered alike, so one table in
 * runtime/device.c answers both), and the driver's version.
 */
#include "drv.h"

#include <string.h>

/* The runtime's properties of the device (after the checks every device call makes). */
static CUresult drv_props(CUdevice dev, struct cudaDeviceProp *p) {
    CUresult r = drv_device_check(dev);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaGetDeviceProperties(p, dev));
}

DRV_API CUresult cuDriverGetVersion(int *driverVersion) {
    if (!driverVersion) return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetCount(int *count) {
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_initialised();
    if (r) return r;
    *count = rt_ctx()->ndevs;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_device_check(ordinal);
    if (r) return r;
    *device = ordinal;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = drv_props(dev, &p);
    if (r) return r;
    strncpy(name, p.name, (size_t)len - 1);
    name[len - 1] = 0;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
    if (!pi) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_device_check(dev);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceGetAttribute(pi, (enum cudaDeviceAttr)attrib, dev));
}

DRV_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = drv_props(dev, &p);
    if (r) return r;
    *bytes = p.totalGlobalMem;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) {
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = drv_props(dev, &p);
    if (r) return r;
    memcpy(uuid->bytes, p.uuid.bytes, sizeof uuid->bytes);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) {
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = drv_props(dev, &p);
    if (r) return r;
    *major = p.major;
    *minor = p.minor;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev) {
    if (!prop) return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    CUresult r = drv_props(dev, &p);
    if (r) return r;
    prop->maxThreadsPerBlock = p.maxThreadsPerBlock;
    for (int i = 0; i < 3; i++) {
        prop->maxThreadsDim[i] = p.maxThreadsDim[i];
        prop->maxGridSize[i] = p.maxGridSize[i];
    }
    prop->sharedMemPerBlock = (int)p.sharedMemPerBlock;
    prop->totalConstantMemory = (int)p.totalConstMem;
    prop->SIMDWidth = p.warpSize;
    prop->memPitch = p.memPitch > 0x7fffffff ? 0x7fffffff : (int)p.memPitch;
    prop->regsPerBlock = p.regsPerBlock;
    int clock = 0;
    cudaError_t saved = drv_rt_begin();
    cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, dev);
    drv_rt_end(saved, cudaSuccess);
    prop->clockRate = clock;
    prop->textureAlign = (int)p.textureAlignment;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev) {
    CUresult r = drv_device_check(dev);
    if (r) return r;
    cudaError_t saved = drv_rt_begin();
    return drv_rt_end(saved, cudaDeviceGetPCIBusId(pciBusId, len, dev));
}

DRV_API CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev) {
    if (!canAccessPeer) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = drv_device_check(dev);
    if (!r) r = drv_device_check(peerDev);
    if (r) return r;
    *canAccessPeer = dev != peerDev; /* every other device is a peer */
    return CUDA_SUCCESS;
}
