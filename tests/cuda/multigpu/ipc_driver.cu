/* ipc_driver.cu — the driver API's interprocess calls: the parent exports a buffer
 * (cuIpcGetMemHandle) and an interprocess event (cuIpcGetEventHandle); a child (this program
 * again) opens both (cuIpcOpenMemHandle, cuIpcOpenEventHandle), waits for the event, adds
 * one to every element and closes the memory (cuIpcCloseMemHandle); the handles' errors.
 */
// nvcc-flags: -lcuda
#include "mgpu_test.h"
#include <cuda.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHOWCU(label, call)                                                              \
    do {                                                                                 \
        CUresult r_ = (call);                                                            \
        const char *n_ = NULL;                                                           \
        cuGetErrorName(r_, &n_);                                                         \
        printf("%s: %s\n", label, n_ ? n_ : "?");                                        \
        fflush(stdout);                                                                  \
    } while (0)

#define OKCU(call)                                                                       \
    do {                                                                                 \
        CUresult r_ = (call);                                                            \
        if (r_ != CUDA_SUCCESS) {                                                        \
            printf("FAILED %s:%d: %s: %d\n", __FILE__, __LINE__, #call, (int)r_);        \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

__global__ void fill(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 3 * i;
}

__global__ void addOne(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

struct handles {
    CUipcMemHandle mem;
    CUipcEventHandle ev;
};

static const int N = 1 << 13;

static int child(int fd) {
    struct handles h;
    if (read(fd, &h, sizeof h) != (ssize_t)sizeof h) return 2;
    OK(cudaFree(0)); /* the primary context, current */
    CUdeviceptr p = 0;
    CUevent ev;
    OKCU(cuIpcOpenMemHandle(&p, h.mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    OKCU(cuIpcOpenEventHandle(&ev, h.ev));
    OKCU(cuStreamWaitEvent(0, ev, 0));
    addOne<<<N / 256, 256>>>((int *)p, N);
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    SHOWCU("child: close the memory handle", cuIpcCloseMemHandle(p));
    SHOWCU("child: close it again", cuIpcCloseMemHandle(p));
    OKCU(cuEventDestroy(ev));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "child") == 0) return child(atoi(argv[2]));
    OK(cudaFree(0));
    CUdeviceptr d;
    OKCU(cuMemAlloc(&d, N * sizeof(int)));
    CUevent ev, plain;
    SHOWCU("interprocess event with timing", cuEventCreate(&ev, CU_EVENT_INTERPROCESS));
    OKCU(cuEventCreate(&ev, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
    OKCU(cuEventCreate(&plain, CU_EVENT_DEFAULT));
    struct handles h;
    CUipcEventHandle eh;
    SHOWCU("event handle of a plain event", cuIpcGetEventHandle(&eh, plain));
    SHOWCU("memory handle of a null pointer", cuIpcGetMemHandle(&h.mem, 0));
    OKCU(cuIpcGetMemHandle(&h.mem, d));
    OKCU(cuIpcGetEventHandle(&h.ev, ev));
    CUdeviceptr self = 0;
    SHOWCU("open a handle in the process that made it",
           cuIpcOpenMemHandle(&self, h.mem, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    fill<<<N / 256, 256>>>((int *)d, N);
    OKCU(cuEventRecord(ev, 0));
    int fds[2];
    if (pipe(fds) != 0) return 2;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[1]);
        char fd[16];
        snprintf(fd, sizeof fd, "%d", fds[0]);
        execl("/proc/self/exe", argv[0], "child", fd, (char *)NULL);
        _exit(3);
    }
    close(fds[0]);
    if (write(fds[1], &h, sizeof h) != (ssize_t)sizeof h) return 2;
    close(fds[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    static int host[N];
    OKCU(cuMemcpyDtoH(host, d, sizeof host));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += host[i] != 3 * i + 1;
    printf("values the child changed: %d of %d right\n", N - bad, N);
    OKCU(cuEventDestroy(ev));
    OKCU(cuEventDestroy(plain));
    OKCU(cuMemFree(d));
    printf("done\n");
    return 0;
}
