/* driver/vmm.c — virtual memory management: cuMemAddressReserve/Free, cuMemCreate/Release,
 * cuMemMap/Unmap, cuMemSetAccess/GetAccess, cuMemGetAllocationGranularity,
 * cuMemRetainAllocationHandle, cuMemGetAllocationPropertiesFromHandle and the POSIX file
 * descriptor form of cuMemExportToShareableHandle/cuMemImportFromShareableHandle.
 *
 * Device memory is host memory (runtime/memory.c), so the model maps directly onto the
 * host's: a reservation is an inaccessible (PROT_NONE) range of the address space, a
 * physical allocation is a memory file (memfd), and cuMemMap maps that file at a place in
 * a reservation (MAP_SHARED | MAP_FIXED), so one allocation mapped at two addresses is the
 * same memory at both, as on a GPU, and an exported descriptor is the file itself. What
 * the device may touch is what cuMemSetAccess opened: each run of adjacent mappings with
 * access is one entry of the runtime's allocation table (device memory of the location's
 * device, RT_MEM_FLAG_VMM so that cudaFree refuses it), so kernels, copies and pointer
 * queries take it as device memory, a copy may cross from one mapping into the next, and a
 * mapped range nobody opened faults as an illegal address.
 *
 * Sizes and addresses are in whole granules of 2 MiB, the H100's minimum and recommended
 * granularity; anything else is CUDA_ERROR_INVALID_VALUE, and a cuMemMap of part of an
 * allocation CUDA_ERROR_NOT_SUPPORTED, as on the GPU (tests/driver/expected/vmm.out, from
 * an H200).
 */
#include "drv.h"
#include "../check/check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define VMM_GRANULE ((size_t)2 << 20)

typedef struct vmm_handle {
    int fd;                   /* the memory file */
    size_t size;
    CUmemAllocationProp prop;
    int refs;                 /* the handle itself (until cuMemRelease) and each mapping */
    struct vmm_handle *next;
} vmm_handle;

typedef struct vmm_map {
    uint64_t va;
    size_t size;
    vmm_handle *h;
    bool access;              /* cuMemSetAccess opened it to its device */
    unsigned flags;           /* CU_MEM_ACCESS_FLAGS_* it was opened with */
    int device;
} vmm_map;

typedef struct vmm_resv {
    uint64_t base;
    size_t size;
    void *raw;                /* the PROT_NONE mapping holding it (aligned inside) */
    size_t raw_size;
    vmm_map *maps;
    size_t nmaps, cap;
    uint64_t *entries;        /* bases of the allocation table's entries made for it */
    size_t nentries;
    struct vmm_resv *next;
} vmm_resv;

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static vmm_resv *vmm_resvs;
static vmm_handle *vmm_handles;

static bool vmm_aligned(uint64_t v) { return v % VMM_GRANULE == 0; }

/* A device location that names one of the program's devices. */
static CUresult vmm_location(const CUmemLocation *loc) {
    if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE) return CUDA_ERROR_INVALID_VALUE;
    return drv_device_check(loc->id);
}

static CUresult vmm_check_prop(const CUmemAllocationProp *prop) {
    if (!prop || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED) return CUDA_ERROR_INVALID_VALUE;
    return vmm_location(&prop->location);
}

static vmm_resv *vmm_resv_of(uint64_t va, size_t size) {
    for (vmm_resv *r = vmm_resvs; r; r = r->next)
        if (va >= r->base && va - r->base < r->size) return size <= r->size - (va - r->base) ? r : NULL;
    return NULL;
}

static vmm_handle *vmm_handle_of(CUmemGenericAllocationHandle handle) {
    for (vmm_handle *h = vmm_handles; h; h = h->next)
        if ((CUmemGenericAllocationHandle)(uintptr_t)h == handle) return h;
    return NULL;
}

static void vmm_handle_put(vmm_handle *h) {
    if (--h->refs > 0) return;
    for (vmm_handle **p = &vmm_handles; *p; p = &(*p)->next)
        if (*p == h) {
            *p = h->next;
            break;
        }
    close(h->fd);
    free(h);
}

/* Make the allocation table say what r's mappings with access are: one device-memory
 * entry per run of adjacent such mappings of one device (vmm_lock held). */
static void vmm_publish(vmm_resv *r) {
    rt_context *c = rt_ctx();
    for (size_t i = 0; i < r->nentries; i++) {
        mem_alloc gone;
        if (mem_table_remove(c->mem, r->entries[i], &gone) && c->check)
            check_on_free(c->check, r->entries[i]);
    }
    r->nentries = 0;
    free(r->entries);
    r->entries = calloc(r->nmaps + 1, sizeof *r->entries);
    if (!r->entries) return;
    /* the mappings in address order */
    for (size_t i = 1; i < r->nmaps; i++)
        for (size_t k = i; k > 0 && r->maps[k].va < r->maps[k - 1].va; k--) {
            vmm_map t = r->maps[k];
            r->maps[k] = r->maps[k - 1];
            r->maps[k - 1] = t;
        }
    for (size_t i = 0; i < r->nmaps;) {
        if (!r->maps[i].access) {
            i++;
            continue;
        }
        size_t k = i + 1;
        while (k < r->nmaps && r->maps[k].access && r->maps[k].device == r->maps[i].device &&
               r->maps[k].va == r->maps[k - 1].va + r->maps[k - 1].size)
            k++;
        uint64_t base = r->maps[i].va, size = r->maps[k - 1].va + r->maps[k - 1].size - base;
        if (mem_table_add_dev(c->mem, base, size, MEM_KIND_DEVICE, RT_MEM_FLAG_VMM,
                              (uint32_t)r->maps[i].device + 1)) {
            r->entries[r->nentries++] = base;
            if (c->check)
                check_on_alloc(c->check, base, size, MEM_KIND_DEVICE, RT_MEM_FLAG_VMM, "cuMemMap");
        }
        i = k;
    }
}

DRV_API CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                               CUmemAllocationGranularity_flags option) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!granularity || !prop || (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
                                  option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
        return CUDA_ERROR_INVALID_VALUE;
    /* the H200 answers 2 MiB whatever the properties say (a device it lacks, the host) */
    *granularity = VMM_GRANULE;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
                                     CUdeviceptr addr, unsigned long long flags) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!ptr || !size || !vmm_aligned(size) || flags) return CUDA_ERROR_INVALID_VALUE;
    if (!alignment) alignment = VMM_GRANULE;
    if (alignment & (alignment - 1)) return CUDA_ERROR_INVALID_VALUE;
    if (alignment < VMM_GRANULE) alignment = VMM_GRANULE;
    vmm_resv *v = calloc(1, sizeof *v);
    if (!v) return CUDA_ERROR_OUT_OF_MEMORY;
    v->raw_size = size + alignment;
    /* the address asked for is a hint, as with the GPU */
    v->raw = mmap(addr ? (void *)(uintptr_t)addr : NULL, v->raw_size, PROT_NONE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (v->raw == MAP_FAILED) {
        free(v);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    v->base = ((uint64_t)(uintptr_t)v->raw + alignment - 1) / alignment * alignment;
    v->size = size;
    pthread_mutex_lock(&vmm_lock);
    v->next = vmm_resvs;
    vmm_resvs = v;
    pthread_mutex_unlock(&vmm_lock);
    *ptr = (CUdeviceptr)v->base;
    return CUDA_SUCCESS;
}

/* Unmap the mappings of r inside [va, va + size) (vmm_lock held). */
static void vmm_unmap_range(vmm_resv *r, uint64_t va, size_t size) {
    size_t o = 0;
    for (size_t i = 0; i < r->nmaps; i++) {
        vmm_map *m = &r->maps[i];
        if (m->va >= va && m->va + m->size <= va + size) {
            /* back to a hole of the reservation */
            mmap((void *)(uintptr_t)m->va, m->size, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
            vmm_handle_put(m->h);
        } else {
            r->maps[o++] = *m;
        }
    }
    r->nmaps = o;
    vmm_publish(r);
}

DRV_API CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
    CUresult r = drv_initialised();
    if (r) return r;
    pthread_mutex_lock(&vmm_lock);
    vmm_resv **p = &vmm_resvs;
    while (*p && !((*p)->base == ptr && (*p)->size == size)) p = &(*p)->next;
    vmm_resv *v = *p;
    if (!v) {
        pthread_mutex_unlock(&vmm_lock);
        return CUDA_ERROR_INVALID_VALUE;
    }
    vmm_unmap_range(v, v->base, v->size);
    *p = v->next;
    pthread_mutex_unlock(&vmm_lock);
    munmap(v->raw, v->raw_size);
    free(v->maps);
    free(v->entries);
    free(v);
    return CUDA_SUCCESS;
}

static CUresult vmm_new_handle(CUmemGenericAllocationHandle *handle, int fd, size_t size,
                               const CUmemAllocationProp *prop) {
    vmm_handle *h = calloc(1, sizeof *h);
    if (!h) return CUDA_ERROR_OUT_OF_MEMORY;
    h->fd = fd;
    h->size = size;
    h->prop = *prop;
    h->refs = 1;
    pthread_mutex_lock(&vmm_lock);
    h->next = vmm_handles;
    vmm_handles = h;
    pthread_mutex_unlock(&vmm_lock);
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)h;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                             const CUmemAllocationProp *prop, unsigned long long flags) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!handle || !size || !vmm_aligned(size) || flags) return CUDA_ERROR_INVALID_VALUE;
    r = vmm_check_prop(prop);
    if (r) return r;
    unsigned types = (unsigned)prop->requestedHandleTypes;
    if (types & ~(unsigned)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
        return CUDA_ERROR_NOT_SUPPORTED; /* fabric and Windows handles: no such thing here */
    const gpu_preset *p = rt_dev_at(rt_ctx(), prop->location.id)->preset;
    if (p && size > p->total_global_mem) return CUDA_ERROR_OUT_OF_MEMORY;
    int fd = memfd_create("vcuda-vmm", MFD_CLOEXEC);
    if (fd < 0) return CUDA_ERROR_OUT_OF_MEMORY;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    r = vmm_new_handle(handle, fd, size, prop);
    if (r) close(fd);
    return r;
}

DRV_API CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
    CUresult r = drv_initialised();
    if (r) return r;
    pthread_mutex_lock(&vmm_lock);
    vmm_handle *h = vmm_handle_of(handle);
    if (h) vmm_handle_put(h);
    pthread_mutex_unlock(&vmm_lock);
    return h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                          CUmemGenericAllocationHandle handle, unsigned long long flags) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!size || !vmm_aligned(ptr) || !vmm_aligned(size) || !vmm_aligned(offset) || flags)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    vmm_resv *v = vmm_resv_of(ptr, size);
    vmm_handle *h = vmm_handle_of(handle);
    r = v && h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (!r && (offset || size != h->size)) r = CUDA_ERROR_NOT_SUPPORTED; /* part of it */
    for (size_t i = 0; !r && i < v->nmaps; i++)
        if (ptr < v->maps[i].va + v->maps[i].size && v->maps[i].va < ptr + size)
            r = CUDA_ERROR_INVALID_VALUE; /* already mapped there */
    if (!r && v->nmaps == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        vmm_map *m = realloc(v->maps, cap * sizeof *m);
        if (!m) r = CUDA_ERROR_OUT_OF_MEMORY;
        else {
            v->maps = m;
            v->cap = cap;
        }
    }
    if (!r && mmap((void *)(uintptr_t)ptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                   h->fd, (off_t)offset) == MAP_FAILED)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (!r) {
        h->refs++;
        v->maps[v->nmaps++] = (vmm_map){.va = ptr, .size = size, .h = h,
                                        .device = h->prop.location.id};
    }
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

/* Is [va, va + size) covered by whole mappings of v, with no hole (vmm_lock held)? */
static bool vmm_covered(const vmm_resv *v, uint64_t va, size_t size, bool whole) {
    uint64_t at = va;
    while (at < va + size) {
        const vmm_map *m = NULL;
        for (size_t i = 0; i < v->nmaps; i++)
            if (at >= v->maps[i].va && at < v->maps[i].va + v->maps[i].size) m = &v->maps[i];
        if (!m || (whole && m->va != at)) return false;
        at = m->va + m->size;
    }
    return !whole || at == va + size;
}

DRV_API CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!size || !vmm_aligned(ptr) || !vmm_aligned(size)) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    vmm_resv *v = vmm_resv_of(ptr, size);
    r = v && vmm_covered(v, ptr, size, true) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (!r) vmm_unmap_range(v, ptr, size);
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

DRV_API CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc,
                                size_t count) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!size || !desc || !count || !vmm_aligned(ptr) || !vmm_aligned(size))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) {
        r = vmm_location(&desc[i].location);
        if (r) return r;
        if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
            desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
            desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_lock(&vmm_lock);
    vmm_resv *v = vmm_resv_of(ptr, size);
    r = v && vmm_covered(v, ptr, size, false) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; !r && i < v->nmaps; i++) {
        vmm_map *m = &v->maps[i];
        if (!(m->va < ptr + size && ptr < m->va + m->size)) continue;
        for (size_t k = 0; k < count; k++) {
            /* the device the memory is on is the one a kernel reaches it from */
            if (desc[k].location.id != m->h->prop.location.id) continue;
            /* read-only is kept as said; writes through it are not refused */
            m->access = desc[k].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE;
            m->flags = (unsigned)desc[k].flags;
        }
    }
    if (!r) vmm_publish(v);
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

DRV_API CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location,
                                CUdeviceptr ptr) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!flags || !location) return CUDA_ERROR_INVALID_VALUE;
    r = vmm_location(location);
    if (r) return r;
    pthread_mutex_lock(&vmm_lock);
    vmm_resv *v = vmm_resv_of(ptr, 1);
    r = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; v && i < v->nmaps; i++)
        if (ptr >= v->maps[i].va && ptr < v->maps[i].va + v->maps[i].size) {
            *flags = v->maps[i].access && v->maps[i].device == location->id
                         ? v->maps[i].flags : CU_MEM_ACCESS_FLAGS_PROT_NONE;
            r = CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

bool drv_vmm_mapping(uint64_t addr, uint64_t *base, uint64_t *size) {
    bool found = false;
    pthread_mutex_lock(&vmm_lock);
    vmm_resv *v = vmm_resv_of(addr, 1);
    for (size_t i = 0; v && i < v->nmaps; i++)
        if (addr >= v->maps[i].va && addr < v->maps[i].va + v->maps[i].size) {
            *base = v->maps[i].va;
            *size = v->maps[i].size;
            found = true;
        }
    pthread_mutex_unlock(&vmm_lock);
    return found;
}

DRV_API CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!handle) return CUDA_ERROR_INVALID_VALUE;
    uint64_t va = (uint64_t)(uintptr_t)addr;
    pthread_mutex_lock(&vmm_lock);
    vmm_resv *v = vmm_resv_of(va, 1);
    r = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; v && i < v->nmaps; i++)
        if (va >= v->maps[i].va && va < v->maps[i].va + v->maps[i].size) {
            v->maps[i].h->refs++;
            *handle = (CUmemGenericAllocationHandle)(uintptr_t)v->maps[i].h;
            r = CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

DRV_API CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
                                                        CUmemGenericAllocationHandle handle) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!prop) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    vmm_handle *h = vmm_handle_of(handle);
    if (h) *prop = h->prop;
    pthread_mutex_unlock(&vmm_lock);
    return h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRV_API CUresult cuMemExportToShareableHandle(void *shareableHandle,
                                              CUmemGenericAllocationHandle handle,
                                              CUmemAllocationHandleType handleType,
                                              unsigned long long flags) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!shareableHandle || flags) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&vmm_lock);
    vmm_handle *h = vmm_handle_of(handle);
    r = !h ? CUDA_ERROR_INVALID_VALUE
        : handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ||
                  !(h->prop.requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
            ? CUDA_ERROR_INVALID_VALUE
            : CUDA_SUCCESS;
    int fd = r ? -1 : dup(h->fd);
    pthread_mutex_unlock(&vmm_lock);
    if (r) return r;
    if (fd < 0) return CUDA_ERROR_OUT_OF_MEMORY;
    *(int *)shareableHandle = fd;
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
                                                void *osHandle,
                                                CUmemAllocationHandleType shHandleType) {
    CUresult r = drv_initialised();
    if (r) return r;
    if (!handle || shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
        return CUDA_ERROR_INVALID_VALUE;
    /* the descriptor travels as the pointer's value, as in CUDA */
    int fd = dup((int)(intptr_t)osHandle);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        if (fd >= 0) close(fd);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    r = vmm_new_handle(handle, fd, (size_t)st.st_size, &prop);
    if (r) close(fd);
    return r;
}
