/* tools/devices.c — `vcuda devices`: the emulated devices, described line for line the
 * way the CUDA samples' deviceQuery (CUDA 13 version) describes real ones, with its peer
 * access lines when there are several.
 *
 * The figures come from the CUDA API of the linked libvcuda (cudaGetDeviceProperties,
 * cudaDeviceGetAttribute, ...), the same path a user program takes, so this doubles as a
 * check of it: tests compare the output with tests/data/h100/devicequery.txt.
 *
 * `--all` describes every preset: for each one the command runs itself again with
 * VCUDA_DEVICE set, since the runtime picks its device once per process.
 */
#include "tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gpu/gpu.h"

/* What deviceQuery prints of one device. */
typedef struct dq_device {
    char name[256];
    int major, minor;
    unsigned long long global_mem;
    int sm_count, clock_khz, mem_clock_khz, bus_width, l2_size;
    int tex1d, tex2d[2], tex3d[3], tex1d_layered[2], tex2d_layered[3];
    size_t const_mem, shared_per_block, shared_per_sm;
    int regs_per_block, warp_size, threads_per_sm, threads_per_block;
    int block_dim[3], grid_dim[3];
    size_t mem_pitch, texture_alignment, surface_alignment;
    int gpu_overlap, async_engines, exec_timeout, integrated, can_map, ecc, uva, managed;
    int preemption, cooperative, pci_domain, pci_bus, pci_device, compute_mode;
} dq_device;

static int attribute(enum cudaDeviceAttr a, int dev) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
        v = 0;
    return v;
}

static bool from_api(dq_device *q, int dev) {
    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    cudaError_t e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess) {
        fprintf(stderr, "vcuda devices: cudaGetDeviceProperties failed (error %d)\n", (int)e);
        return false;
    }
    memset(q, 0, sizeof *q);
    snprintf(q->name, sizeof q->name, "%s", p.name);
    q->major = p.major;
    q->minor = p.minor;
    q->global_mem = p.totalGlobalMem;
    q->sm_count = p.multiProcessorCount;
    q->clock_khz = attribute(cudaDevAttrClockRate, dev);
    q->mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, dev);
    q->bus_width = p.memoryBusWidth;
    q->l2_size = p.l2CacheSize;
    q->tex1d = p.maxTexture1D;
    memcpy(q->tex2d, p.maxTexture2D, sizeof q->tex2d);
    memcpy(q->tex3d, p.maxTexture3D, sizeof q->tex3d);
    memcpy(q->tex1d_layered, p.maxTexture1DLayered, sizeof q->tex1d_layered);
    memcpy(q->tex2d_layered, p.maxTexture2DLayered, sizeof q->tex2d_layered);
    q->const_mem = p.totalConstMem;
    q->shared_per_block = p.sharedMemPerBlock;
    q->shared_per_sm = p.sharedMemPerMultiprocessor;
    q->regs_per_block = p.regsPerBlock;
    q->warp_size = p.warpSize;
    q->threads_per_sm = p.maxThreadsPerMultiProcessor;
    q->threads_per_block = p.maxThreadsPerBlock;
    memcpy(q->block_dim, p.maxThreadsDim, sizeof q->block_dim);
    memcpy(q->grid_dim, p.maxGridSize, sizeof q->grid_dim);
    q->mem_pitch = p.memPitch;
    q->texture_alignment = p.textureAlignment;
    q->surface_alignment = p.surfaceAlignment;
    q->gpu_overlap = attribute(cudaDevAttrGpuOverlap, dev);
    q->async_engines = p.asyncEngineCount;
    q->exec_timeout = attribute(cudaDevAttrKernelExecTimeout, dev);
    q->integrated = p.integrated;
    q->can_map = p.canMapHostMemory;
    q->ecc = p.ECCEnabled;
    q->uva = p.unifiedAddressing;
    q->managed = p.managedMemory;
    q->preemption = p.computePreemptionSupported;
    q->cooperative = p.cooperativeLaunch;
    q->pci_domain = p.pciDomainID;
    q->pci_bus = p.pciBusID;
    q->pci_device = p.pciDeviceID;
    q->compute_mode = attribute(cudaDevAttrComputeMode, dev);
    return true;
}

/* FP32 lanes per SM: the preset of that compute capability says. */
static int cores_per_sm(int major, int minor) {
    for (size_t i = 0; i < gpu_preset_count; i++) {
        if (gpu_presets[i].major == major && gpu_presets[i].minor == minor)
            return gpu_presets[i].cores_per_sm;
    }
    return 128;
}

static void print_device(const dq_device *q, int dev, int driver, int runtime) {
    printf("\nDevice %d: \"%s\"\n", dev, q->name);
    printf("  CUDA Driver Version / Runtime Version          %d.%d / %d.%d\n", driver / 1000,
           (driver % 100) / 10, runtime / 1000, (runtime % 100) / 10);
    printf("  CUDA Capability Major/Minor version number:    %d.%d\n", q->major, q->minor);
    printf("  Total amount of global memory:                 %.0f MBytes (%llu bytes)\n",
           (double)(float)(q->global_mem / 1048576.0f), q->global_mem);
    int cores = cores_per_sm(q->major, q->minor);
    printf("  (%03d) Multiprocessors, (%03d) CUDA Cores/MP:    %d CUDA Cores\n", q->sm_count,
           cores, cores * q->sm_count);
    printf("  GPU Max Clock rate:                            %.0f MHz (%0.2f GHz)\n",
           (double)(q->clock_khz * 1e-3f), (double)(q->clock_khz * 1e-6f));
    printf("  Memory Clock rate:                             %.0f Mhz\n",
           (double)(q->mem_clock_khz * 1e-3f));
    printf("  Memory Bus Width:                              %d-bit\n", q->bus_width);
    if (q->l2_size)
        printf("  L2 Cache Size:                                 %d bytes\n", q->l2_size);
    printf("  Maximum Texture Dimension Size (x,y,z)         1D=(%d), 2D=(%d, %d), 3D=(%d, %d, %d)\n",
           q->tex1d, q->tex2d[0], q->tex2d[1], q->tex3d[0], q->tex3d[1], q->tex3d[2]);
    printf("  Maximum Layered 1D Texture Size, (num) layers  1D=(%d), %d layers\n",
           q->tex1d_layered[0], q->tex1d_layered[1]);
    printf("  Maximum Layered 2D Texture Size, (num) layers  2D=(%d, %d), %d layers\n",
           q->tex2d_layered[0], q->tex2d_layered[1], q->tex2d_layered[2]);
    printf("  Total amount of constant memory:               %zu bytes\n", q->const_mem);
    printf("  Total amount of shared memory per block:       %zu bytes\n", q->shared_per_block);
    printf("  Total shared memory per multiprocessor:        %zu bytes\n", q->shared_per_sm);
    printf("  Total number of registers available per block: %d\n", q->regs_per_block);
    printf("  Warp size:                                     %d\n", q->warp_size);
    printf("  Maximum number of threads per multiprocessor:  %d\n", q->threads_per_sm);
    printf("  Maximum number of threads per block:           %d\n", q->threads_per_block);
    printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n", q->block_dim[0],
           q->block_dim[1], q->block_dim[2]);
    printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n", q->grid_dim[0],
           q->grid_dim[1], q->grid_dim[2]);
    printf("  Maximum memory pitch:                          %zu bytes\n", q->mem_pitch);
    printf("  Texture alignment:                             %zu bytes\n", q->texture_alignment);
    printf("  Concurrent copy and kernel execution:          %s with %d copy engine(s)\n",
           q->gpu_overlap ? "Yes" : "No", q->async_engines);
    printf("  Run time limit on kernels:                     %s\n", q->exec_timeout ? "Yes" : "No");
    printf("  Integrated GPU sharing Host Memory:            %s\n", q->integrated ? "Yes" : "No");
    printf("  Support host page-locked memory mapping:       %s\n", q->can_map ? "Yes" : "No");
    printf("  Alignment requirement for Surfaces:            %s\n",
           q->surface_alignment ? "Yes" : "No");
    printf("  Device has ECC support:                        %s\n", q->ecc ? "Enabled" : "Disabled");
    printf("  Device supports Unified Addressing (UVA):      %s\n", q->uva ? "Yes" : "No");
    printf("  Device supports Managed Memory:                %s\n", q->managed ? "Yes" : "No");
    printf("  Device supports Compute Preemption:            %s\n", q->preemption ? "Yes" : "No");
    printf("  Supports Cooperative Kernel Launch:            %s\n", q->cooperative ? "Yes" : "No");
    printf("  Device PCI Domain ID / Bus ID / location ID:   %d / %d / %d\n", q->pci_domain,
           q->pci_bus, q->pci_device);
    static const char *const modes[] = {
        "Default (multiple host threads can use ::cudaSetDevice() with device simultaneously)",
        "Exclusive (only one host thread in one process is able to use ::cudaSetDevice() with this device)",
        "Prohibited (no host thread can use ::cudaSetDevice() with this device)",
        "Exclusive Process (many threads in one process is able to use ::cudaSetDevice() with this device)",
        "Unknown"};
    printf("  Compute Mode:\n");
    printf("     < %s >\n", modes[q->compute_mode >= 0 && q->compute_mode < 4 ? q->compute_mode : 4]);
}

/* The device section(s) for the current VCUDA_DEVICE, after the "Detected" line when
 * detected_line; returns the device count (-1 on error) and the versions through
 * *driver, *runtime. */
static int print_current(bool detected_line, int *driver, int *runtime) {
    *driver = *runtime = CUDART_VERSION;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        printf("cudaGetDeviceCount returned %d\n", (int)e);
        return -1;
    }
    if (detected_line) {
        if (count == 0)
            printf("There are no available device(s) that support CUDA\n");
        else
            printf("Detected %d CUDA Capable device(s)\n", count);
    }
    cudaDriverGetVersion(driver);
    cudaRuntimeGetVersion(runtime);
    for (int dev = 0; dev < count; dev++) {
        dq_device q;
        if (!from_api(&q, dev))
            return -1;
        print_device(&q, dev, *driver, *runtime);
    }
    /* deviceQuery's peer section, for two devices or more */
    for (int a = 0; count >= 2 && a < count; a++) {
        for (int b = 0; b < count; b++) {
            if (a == b) continue;
            struct cudaDeviceProp pa, pb;
            int can = 0;
            if (cudaGetDeviceProperties(&pa, a) != cudaSuccess ||
                cudaGetDeviceProperties(&pb, b) != cudaSuccess ||
                cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess)
                return -1;
            printf("> Peer access from %s (GPU%d) -> %s (GPU%d) : %s\n", pa.name, a, pb.name, b,
                   can ? "Yes" : "No");
        }
    }
    return count;
}

int tool_devices(int argc, char **argv) {
    bool all = false, section = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--all") == 0) {
            all = true;
        } else if (strcmp(argv[i], "--section") == 0) {
            section = true; /* internal: the device part only, for --all */
        } else if (strncmp(argv[i], "--device", 8) == 0) {
            /* --device or --devices, a preset or a list (h100,a100 / h100x2) */
            size_t n = argv[i][8] == 's' ? 9 : 8;
            const char *v = argv[i][n] == '=' ? argv[i] + n + 1
                            : argv[i][n] == 0 && i + 1 < argc ? argv[++i] : NULL;
            const gpu_preset *list[GPU_MAX_DEVICES];
            char err[512];
            if (!v || gpu_preset_list(v, list, GPU_MAX_DEVICES, err, sizeof err) == 0) {
                fprintf(stderr, "vcuda devices: unknown device '%s'; valid names:", v ? v : "");
                for (size_t k = 0; k < gpu_preset_count; k++)
                    fprintf(stderr, " %s", gpu_presets[k].key);
                fprintf(stderr, "\n");
                return 2;
            }
            setenv("VCUDA_DEVICE", v, 1);
        } else {
            fprintf(stderr, "vcuda devices: unknown option '%s' (usage: vcuda devices [--all] [--device NAME])\n",
                    argv[i]);
            return 2;
        }
    }
    int driver, runtime;
    if (section)
        return print_current(false, &driver, &runtime) < 0 ? 1 : 0;
    if (all) {
        int rc = 0;
        for (size_t k = 0; k < gpu_preset_count; k++) {
            const gpu_preset *p = &gpu_presets[k];
            printf("%s=== %s: %s, %s (VCUDA_DEVICE=%s)\n", k ? "\n" : "", p->key, p->name,
                   p->arch_name, p->key);
            setenv("VCUDA_DEVICE", p->key, 1);
            char exe[] = "/proc/self/exe";
            char *child[] = {exe, "devices", "--section", NULL};
            if (tool_spawn_wait(child) != 0)
                rc = 1;
        }
        return rc;
    }
    printf("vcuda devices Starting...\n\n");
    printf(" CUDA Device Query (Runtime API) version (CUDART static linking)\n\n");
    fflush(stdout);
    int count = print_current(true, &driver, &runtime);
    if (count < 0) {
        printf("Result = FAIL\n");
        return 1;
    }
    printf("\n");
    printf("deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = %d.%d, CUDA Runtime Version = %d.%d, NumDevs = %d\n",
           driver / 1000, (driver % 100) / 10, runtime / 1000, (runtime % 100) / 10, count);
    printf("Result = PASS\n");
    return 0;
}
