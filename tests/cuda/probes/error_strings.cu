/* error_strings.cu — cudaGetErrorName and cudaGetErrorString for every code. */
#include "probe.h"

int main() {
    for (int i = 0; i <= 1100; i++) {
        cudaError_t e = (cudaError_t)i;
        printf("%d\t%s\t%s\n", i, cudaGetErrorName(e), cudaGetErrorString(e));
    }
    const int extra[] = {-1, 5000, 10000, 100000, 2147483647};
    for (int i : extra) {
        cudaError_t e = (cudaError_t)i;
        printf("%d\t%s\t%s\n", i, cudaGetErrorName(e), cudaGetErrorString(e));
    }
    SHOW_LAST("after");
    return 0;
}
