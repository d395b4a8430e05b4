/* runtime/ipc.c — sharing device memory and events between processes
 * (cudaIpcGetMemHandle, cudaIpcOpenMemHandle, cudaIpcCloseMemHandle, cudaIpcGetEventHandle,
 * cudaIpcOpenEventHandle).
 *
 * Device memory is host memory in whole pages (memory.c). Exporting an allocation moves
 * it, in place, onto a memory file (memfd): its contents are copied there and the file
 * is mapped over the same addresses, so pointers the program holds stay valid. The handle
 * names the exporting process and the file's descriptor; another process of the same user
 * opens the file through /proc/<pid>/fd/<fd> and maps it, so both see the same bytes. An
 * interprocess event's state (how many records were issued, and the last one completed)
 * lives on a shared page of its own, which the engine updates when a record completes; a
 * process that opened the event waits on the host until the record it saw has completed.
 *
 * Answers follow two H200s under CUDA 13 (tests/cuda/multigpu/expected/ipc.out): a pointer
 * inside an allocation gives the allocation's handle, pinned host memory is refused with
 * cudaErrorInvalidValue, a plain event with cudaErrorInvalidResourceHandle, and a process
 * opening its own handle gets cudaErrorDeviceUninitialized.
 */
#include "rt.h"
#include "../exec/texture.h"

#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define RT_IPC_MEM_MAGIC "vcudamem"
#define RT_IPC_EVENT_MAGIC "vcudaevt"

/* What a handle's 64 bytes hold. */
typedef struct rt_ipc_handle {
    char magic[8];
    int32_t pid;
    int32_t fd;
    uint64_t size;
} rt_ipc_handle;
_Static_assert(sizeof(rt_ipc_handle) <= sizeof(cudaIpcMemHandle_t), "handle too small");
_Static_assert(sizeof(rt_ipc_handle) <= sizeof(cudaIpcEventHandle_t), "handle too small");

/* An exported allocation. */
typedef struct rt_ipc_export {
    uint64_t base, len;
    int fd;
    struct rt_ipc_export *next;
} rt_ipc_export;

/* An interprocess event's shared page. */
typedef struct rt_ipc_shared {
    _Atomic uint64_t recorded;  /* records issued */
    _Atomic uint64_t done;      /* the last record completed */
} rt_ipc_shared;

struct rt_ipc_event {
    rt_ipc_shared *shared;
    int fd;                     /* the memory file (made here), or -1 (opened) */
};

static pthread_mutex_t rt_ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_ipc_export *rt_ipc_exports;

static size_t rt_page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static size_t rt_pages(size_t n) {
    size_t p = rt_page();
    return (n + p - 1) / p * p;
}

/* A descriptor of another process's memory file, or -1. */
static int rt_ipc_open_fd(const rt_ipc_handle *h) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)h->pid, (int)h->fd);
    return open(path, O_RDWR | O_CLOEXEC);
}

void rt_ipc_forget(void *p) {
    pthread_mutex_lock(&rt_ipc_lock);
    for (rt_ipc_export **x = &rt_ipc_exports; *x; x = &(*x)->next) {
        if ((*x)->base == (uint64_t)(uintptr_t)p) {
            rt_ipc_export *gone = *x;
            *x = gone->next;
            close(gone->fd);
            free(gone);
            break;
        }
    }
    pthread_mutex_unlock(&rt_ipc_lock);
}

/* ---- memory ---- */

/* Put the allocation [base, base+len) on a memory file, in place; its descriptor or -1. */
static int rt_ipc_export_alloc(uint64_t base, uint64_t len) {
    int fd = memfd_create("vcuda-ipc", MFD_CLOEXEC);
    if (fd < 0) return -1;
    void *at = (void *)(uintptr_t)base;
    if (ftruncate(fd, (off_t)len) != 0 || pwrite(fd, at, len, 0) != (ssize_t)len ||
        mmap(at, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        close(fd);
        return -1;
    }
    return fd;
}

RT_API cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!handle) return rt_record(cudaErrorInvalidValue);
    mem_alloc a;
    if (!mem_table_find(c->mem, (uint64_t)(uintptr_t)devPtr, &a) || a.kind != MEM_KIND_DEVICE ||
        (a.flags & (RT_MEM_FLAG_POOL | RT_MEM_FLAG_IPC | EXEC_MEM_FLAG_OBJECT)))
        return rt_record(cudaErrorInvalidValue);
    if (a.size < rt_page() || a.base % rt_page()) {
        fprintf(stderr, "vcuda: cudaIpcGetMemHandle: an allocation under a page (%zu bytes) "
                        "cannot be shared\n", rt_page());
        return rt_record(cudaErrorNotSupported);
    }
    uint64_t len = rt_pages(a.size);
    pthread_mutex_lock(&rt_ipc_lock);
    rt_ipc_export *x = rt_ipc_exports;
    while (x && x->base != a.base) x = x->next;
    if (!x) {
        int fd = rt_ipc_export_alloc(a.base, len);
        x = fd >= 0 ? calloc(1, sizeof *x) : NULL;
        if (x) {
            *x = (rt_ipc_export){a.base, len, fd, rt_ipc_exports};
            rt_ipc_exports = x;
        } else if (fd >= 0) {
            close(fd);
        }
    }
    pthread_mutex_unlock(&rt_ipc_lock);
    if (!x) {
        fprintf(stderr, "vcuda: cudaIpcGetMemHandle: cannot share the allocation (memfd)\n");
        return rt_record(cudaErrorMemoryAllocation);
    }
    rt_ipc_handle h = {.pid = (int32_t)getpid(), .fd = x->fd, .size = a.size};
    memcpy(h.magic, RT_IPC_MEM_MAGIC, sizeof h.magic);
    memset(handle, 0, sizeof *handle);
    memcpy(handle, &h, sizeof h);
    return cudaSuccess;
}

RT_API cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle,
                                        unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_ipc_handle h;
    memcpy(&h, &handle, sizeof h);
    if (!devPtr || flags != cudaIpcMemLazyEnablePeerAccess ||
        memcmp(h.magic, RT_IPC_MEM_MAGIC, sizeof h.magic) != 0 || h.size == 0)
        return rt_record(cudaErrorInvalidValue);
    if (h.pid == (int32_t)getpid()) return rt_record(cudaErrorDeviceUninitialized);
    int fd = rt_ipc_open_fd(&h);
    if (fd < 0) {
        fprintf(stderr, "vcuda: cudaIpcOpenMemHandle: process %d's memory cannot be opened\n",
                (int)h.pid);
        return rt_record(cudaErrorInvalidValue);
    }
    size_t len = rt_pages(h.size);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return rt_record(cudaErrorMemoryAllocation);
    /* no device's own: every device's kernels reach it */
    if (!mem_table_add(c->mem, (uint64_t)(uintptr_t)p, h.size, MEM_KIND_DEVICE,
                       RT_MEM_FLAG_IPC)) {
        munmap(p, len);
        return rt_record(cudaErrorMemoryAllocation);
    }
    *devPtr = p;
    return cudaSuccess;
}

RT_API cudaError_t cudaIpcCloseMemHandle(void *devPtr) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    mem_alloc a;
    if (!mem_table_find(c->mem, (uint64_t)(uintptr_t)devPtr, &a) ||
        a.base != (uint64_t)(uintptr_t)devPtr || !(a.flags & RT_MEM_FLAG_IPC))
        return rt_record(cudaErrorInvalidValue);
    /* its work first: a kernel may still be using it */
    rt_device_synchronize(c);
    if (!mem_table_remove(c->mem, a.base, NULL)) return rt_record(cudaErrorInvalidValue);
    munmap(devPtr, rt_pages(a.size));
    return cudaSuccess;
}

/* ---- events ---- */

bool rt_ipc_event_init(rt_event *ev) {
    struct rt_ipc_event *x = calloc(1, sizeof *x);
    int fd = x ? memfd_create("vcuda-ipc-event", MFD_CLOEXEC) : -1;
    void *p = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)rt_page()) == 0)
        p = mmap(NULL, rt_page(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        if (fd >= 0) close(fd);
        free(x);
        return false;
    }
    x->shared = p;
    x->fd = fd;
    ev->ipc = x;
    return true;
}

void rt_ipc_event_free(rt_event *ev) {
    if (!ev->ipc) return;
    munmap(ev->ipc->shared, rt_page());
    if (ev->ipc->fd >= 0) close(ev->ipc->fd);
    free(ev->ipc);
    ev->ipc = NULL;
}

uint64_t rt_ipc_event_recorded(rt_event *ev) {
    return atomic_fetch_add(&ev->ipc->shared->recorded, 1) + 1;
}

void rt_ipc_event_done(rt_event *ev, uint64_t seq) {
    /* records complete in issue order (one stream) or not at all: the latest wins */
    uint64_t done = atomic_load(&ev->ipc->shared->done);
    while (done < seq && !atomic_compare_exchange_weak(&ev->ipc->shared->done, &done, seq)) {
    }
}

bool rt_ipc_event_wait(rt_event *ev, bool query) {
    rt_ipc_shared *s = ev->ipc->shared;
    uint64_t want = atomic_load(&s->recorded);
    if (query) return atomic_load(&s->done) >= want;
    struct timespec nap = {0, 100000}; /* 0.1 ms between looks */
    while (atomic_load(&s->done) < want) nanosleep(&nap, NULL);
    return true;
}

RT_API cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!handle) return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_event *ev = event ? rt_ptrmap_get(&c->events, event) : NULL;
    int fd = ev && ev->ipc && !ev->ipc_opened ? ev->ipc->fd : -1;
    pthread_mutex_unlock(&c->engine_lock);
    if (fd < 0) return rt_record(cudaErrorInvalidResourceHandle);
    rt_ipc_handle h = {.pid = (int32_t)getpid(), .fd = fd, .size = rt_page()};
    memcpy(h.magic, RT_IPC_EVENT_MAGIC, sizeof h.magic);
    memset(handle, 0, sizeof *handle);
    memcpy(handle, &h, sizeof h);
    return cudaSuccess;
}

RT_API cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    rt_ipc_handle h;
    memcpy(&h, &handle, sizeof h);
    if (!event || memcmp(h.magic, RT_IPC_EVENT_MAGIC, sizeof h.magic) != 0)
        return rt_record(cudaErrorInvalidValue);
    if (h.pid == (int32_t)getpid()) return rt_record(cudaErrorDeviceUninitialized);
    int fd = rt_ipc_open_fd(&h);
    if (fd < 0) {
        fprintf(stderr, "vcuda: cudaIpcOpenEventHandle: process %d's event cannot be opened\n",
                (int)h.pid);
        return rt_record(cudaErrorInvalidValue);
    }
    void *p = mmap(NULL, rt_page(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    rt_event *ev = calloc(1, sizeof *ev);
    struct rt_ipc_event *x = calloc(1, sizeof *x);
    if (p == MAP_FAILED || !ev || !x) {
        if (p != MAP_FAILED) munmap(p, rt_page());
        free(ev);
        free(x);
        return rt_record(cudaErrorMemoryAllocation);
    }
    x->shared = p;
    x->fd = -1;
    ev->ipc = x;
    ev->ipc_opened = true;
    ev->flags = cudaEventInterprocess | cudaEventDisableTiming;
    ev->device = rt_cur(c)->ordinal;
    ev->refs = 1;
    pthread_mutex_lock(&c->engine_lock);
    bool ok = rt_ptrmap_put(&c->events, ev, ev);
    pthread_mutex_unlock(&c->engine_lock);
    if (!ok) {
        rt_ipc_event_free(ev);
        free(ev);
        return rt_record(cudaErrorMemoryAllocation);
    }
    *event = (cudaEvent_t)ev;
    return cudaSuccess;
}
