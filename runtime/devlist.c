/* runtime/devlist.c — which devices the program sees and which one each host thread is
 * using: the list VCUDA_DEVICE names ("h100", "h100,a100", "h100x4"), renumbered and
 * filtered by CUDA_VISIBLE_DEVICES; cudaGetDeviceCount, the current device of the calling
 * thread (cudaSetDevice, cudaGetDevice, cudaInitDevice; a new thread starts on device 0),
 * cudaChooseDevice, cudaSetValidDevices, and peer access between devices
 * (cudaDeviceCanAccessPeer, cudaDeviceEnablePeerAccess/DisablePeerAccess,
 * cudaDeviceGetP2PAttribute).
 *
 * Every device reaches every other as a peer (they are one host's memory), once the
 * program enables it: a kernel touching another device's memory without it faults with an
 * illegal address, as on a GPU (exec/memory.c checks the owner an allocation records).
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CUDA_VISIBLE_DEVICES: indices into the list, separated by commas; the list ends at the
 * first entry that is not a valid index (or repeats one), as CUDA's does. Returns how
 * many devices remain, their places in order[]. */
static int rt_visible(const char *env, int n, int *order) {
    int m = 0;
    const char *p = env;
    while (*p && m < n) {
        while (*p == ' ') p++;
        char *end;
        long i = strtol(p, &end, 10);
        if (end == p || i < 0 || i >= n || (*end && *end != ',' && *end != ' ')) break;
        bool seen = false;
        for (int k = 0; k < m; k++) seen |= order[k] == (int)i;
        if (seen) break;
        order[m++] = (int)i;
        p = end;
        while (*p == ' ') p++;
        if (*p != ',') break;
        p++;
    }
    return m;
}

void rt_devices_init(rt_context *c) {
    const gpu_preset *list[GPU_MAX_DEVICES];
    char err[512] = "";
    int n = gpu_presets_from_env(list, GPU_MAX_DEVICES, err, sizeof err);
    if (n == 0) fprintf(stderr, "vcuda: %s\n", err);
    int order[GPU_MAX_DEVICES];
    for (int i = 0; i < n; i++) order[i] = i;
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    int m = vis && n ? rt_visible(vis, n, order) : n;
    for (int i = 0; i < m; i++)
        c->devs[i] = (rt_dev){.ordinal = i, .physical = order[i], .preset = list[order[i]]};
    c->ndevs = m;
    c->mem = mem_table_new();
    if (!c->mem) {
        fprintf(stderr, "vcuda: out of memory creating the runtime\n");
        abort();
    }
}

rt_dev *rt_dev_at(rt_context *c, int d) {
    return d >= 0 && d < c->ndevs ? &c->devs[d] : NULL;
}

static cudaError_t rt_devices_ready(rt_context *c) {
    return c->ndevs ? cudaSuccess : rt_record(cudaErrorNoDevice);
}

RT_API cudaError_t cudaGetDeviceCount(int *count) {
    rt_context *c = rt_ctx();
    if (!count) return rt_record(cudaErrorInvalidValue);
    *count = c->ndevs;
    return rt_devices_ready(c);
}

RT_API cudaError_t cudaGetDevice(int *device) {
    rt_context *c = rt_ctx();
    if (!device) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_ready(c);
    if (e) return e;
    *device = rt_cur(c)->ordinal;
    return cudaSuccess;
}

RT_API cudaError_t cudaSetDevice(int device) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_devices_ready(c);
    if (e) return e;
    if (!rt_dev_at(c, device)) return rt_record(cudaErrorInvalidDevice);
    rt_thread_state()->device = device;
    rt_thread_state()->device_chosen = true;
    return c->unusable ? rt_record(cudaErrorDevicesUnavailable) : cudaSuccess;
}

/* Makes the device's primary context; the current device stays what it was (an H200
 * pair shows it: tests/cuda/multigpu/expected/devices.out). */
RT_API cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
    (void)deviceFlags;
    rt_context *c = rt_ctx();
    if (flags != 0) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_ready(c);
    if (e) return e;
    if (!rt_dev_at(c, device)) return rt_record(cudaErrorInvalidDevice);
    e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    bool ok = rt_dev_gpu(c, device) != NULL;
    pthread_mutex_unlock(&c->lock);
    return ok ? cudaSuccess : rt_record(cudaErrorDevicesUnavailable);
}

/* The device closest to prop: the first with its compute capability, else the first with
 * its major version, else device 0. */
RT_API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) {
    rt_context *c = rt_ctx();
    if (!device || !prop) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_ready(c);
    if (e) return e;
    int best = 0, score = -1;
    for (int d = 0; d < c->ndevs; d++) {
        const gpu_preset *p = c->devs[d].preset;
        int s = (p->major == prop->major) * 2 + (p->minor == prop->minor);
        if (s > score) best = d, score = s;
    }
    *device = best;
    return cudaSuccess;
}

/* The devices to try, in order, for a thread that has not chosen one: vcuda's devices
 * always work, so such a thread's current device becomes the first (as a GPU shows:
 * tests/cuda/multigpu/expected/devices.out). */
RT_API cudaError_t cudaSetValidDevices(int *device_arr, int len) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (len < 0 || (len > 0 && !device_arr)) return rt_record(cudaErrorInvalidValue);
    for (int i = 0; i < len; i++)
        if (!rt_dev_at(c, device_arr[i])) return rt_record(cudaErrorInvalidDevice);
    rt_thread *t = rt_thread_state();
    if (len > 0 && !t->device_chosen) t->device = device_arr[0];
    return cudaSuccess;
}

/* ---- peers ---- */

RT_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
    rt_context *c = rt_ctx();
    if (!canAccessPeer) return rt_record(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_ready(c);
    if (e) return e;
    if (!rt_dev_at(c, device) || !rt_dev_at(c, peerDevice))
        return rt_record(cudaErrorInvalidDevice);
    *canAccessPeer = device != peerDevice; /* a device is not its own peer */
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_dev *me = rt_cur(c);
    if (!rt_dev_at(c, peerDevice)) return rt_record(cudaErrorInvalidDevice);
    if (peerDevice == me->ordinal) return rt_record(cudaErrorPeerAccessUnsupported);
    if (flags != 0) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->lock);
    bool already = me->peers >> peerDevice & 1;
    me->peers |= 1u << peerDevice;
    pthread_mutex_unlock(&c->lock);
    return already ? rt_record(cudaErrorPeerAccessAlreadyEnabled) : cudaSuccess;
}

RT_API cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_dev *me = rt_cur(c);
    if (!rt_dev_at(c, peerDevice)) return rt_record(cudaErrorInvalidDevice);
    pthread_mutex_lock(&c->lock);
    bool was = me->peers >> peerDevice & 1;
    me->peers &= ~(1u << peerDevice);
    pthread_mutex_unlock(&c->lock);
    if (!was) return rt_record(cudaErrorPeerAccessNotEnabled);
    /* ranges the executor remembers as reachable may not be any more */
    mem_forget_cached();
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
                                             int srcDevice, int dstDevice) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!value) return rt_record(cudaErrorInvalidValue);
    if (!rt_dev_at(c, srcDevice) || !rt_dev_at(c, dstDevice) || srcDevice == dstDevice)
        return rt_record(cudaErrorInvalidDevice);
    switch (attr) {
    case cudaDevP2PAttrPerformanceRank: *value = 0; break;
    case cudaDevP2PAttrAccessSupported:
    case cudaDevP2PAttrNativeAtomicSupported:
    case cudaDevP2PAttrCudaArrayAccessSupported: *value = 1; break;
    default:
        if ((int)attr == 5) { /* cudaDevP2PAttrOnlyPartialNativeAtomicSupported */
            *value = 0;
            break;
        }
        return rt_record(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
