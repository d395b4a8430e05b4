// A cuBLAS routine vcuda's libcublas does not have (syrk): `vcuda cc ... -lcublas` must
// refuse to link it, naming it, rather than build a program that fails quietly.
#include <cstdio>
#include <cublas_v2.h>
int main() {
    cublasHandle_t h;
    cublasCreate(&h);
    float one = 1, *d = nullptr;
    printf("%d\n", (int)cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &one, d, 2, &one,
                                    d, 2));
    return 0;
}
