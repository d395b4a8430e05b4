/* ipc.cu — two processes sharing device memory and an event: the parent allocates and
 * fills a buffer, exports it (cudaIpcGetMemHandle) and an interprocess event
 * (cudaIpcGetEventHandle), and starts a child (this program again) that opens both,
 * waits for the event, doubles the buffer in place with a kernel and exits; the parent
 * then reads what the child wrote. The handles travel through a pipe. */
#include "mgpu_test.h"
#include <sys/wait.h>
#include <unistd.h>

__global__ void iota(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i;
}

__global__ void twice(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= 2;
}

struct handles {
    cudaIpcMemHandle_t mem;
    cudaIpcEventHandle_t ev;
};

static const int N = 1 << 14;

static int child(int fd) {
    struct handles h;
    if (read(fd, &h, sizeof h) != (ssize_t)sizeof h) return 2;
    int *p = NULL;
    cudaEvent_t ev;
    OK(cudaIpcOpenMemHandle((void **)&p, h.mem, cudaIpcMemLazyEnablePeerAccess));
    OK(cudaIpcOpenEventHandle(&ev, h.ev));
    OK(cudaStreamWaitEvent(0, ev, 0));
    twice<<<N / 256, 256>>>(p, N);
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    SHOW("child: close the memory handle", cudaIpcCloseMemHandle(p));
    OK(cudaEventDestroy(ev));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "child") == 0) return child(atoi(argv[2]));
    int *d;
    OK(cudaMalloc(&d, N * sizeof(int)));
    cudaEvent_t ev;
    SHOW("interprocess event with timing",
         cudaEventCreateWithFlags(&ev, cudaEventInterprocess));
    OK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
    struct handles h;
    OK(cudaIpcGetMemHandle(&h.mem, d));
    SHOW("handle of a pointer inside the allocation", cudaIpcGetMemHandle(&h.mem, d + 8));
    OK(cudaIpcGetMemHandle(&h.mem, d));
    OK(cudaIpcGetEventHandle(&h.ev, ev));
    cudaEvent_t plain;
    OK(cudaEventCreate(&plain));
    cudaIpcEventHandle_t eh;
    SHOW("event handle of a plain event", cudaIpcGetEventHandle(&eh, plain));
    int *host;
    OK(cudaMallocHost(&host, N * sizeof(int)));
    SHOW("memory handle of pinned host memory", cudaIpcGetMemHandle(&h.mem, host));
    OK(cudaIpcGetMemHandle(&h.mem, d));
    void *self = NULL;
    SHOW("open a handle in the process that made it",
         cudaIpcOpenMemHandle(&self, h.mem, cudaIpcMemLazyEnablePeerAccess));
    iota<<<N / 256, 256>>>(d, N);
    OK(cudaEventRecord(ev, 0));
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
    OK(cudaMemcpy(host, d, N * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += host[i] != 2 * i;
    printf("values the child doubled: %d of %d right\n", N - bad, N);
    OK(cudaFreeHost(host));
    OK(cudaEventDestroy(ev));
    OK(cudaEventDestroy(plain));
    OK(cudaFree(d));
    printf("done\n");
    return 0;
}
