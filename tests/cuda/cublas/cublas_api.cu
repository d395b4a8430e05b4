// cuBLAS v2 API: every routine vcuda's libcublas implements, for float and double, with
// integer-valued data (exact results), strides (negative ones too), transposes, host and
// device pointer modes, beta == 0 over NaNs, a stream of its own, and argument errors.
// The output is compared with what the same program printed on an H100 with NVIDIA's
// cuBLAS (expected/cublas_api.out).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cublas_v2.h>
#include <cuda_runtime.h>

template <typename T> struct B;
template <> struct B<float> {
    static constexpr const char *name = "S";
    static constexpr auto axpy = &cublasSaxpy_v2;
    static constexpr auto scal = &cublasSscal_v2;
    static constexpr auto copy = &cublasScopy_v2;
    static constexpr auto swap = &cublasSswap_v2;
    static constexpr auto dot = &cublasSdot_v2;
    static constexpr auto nrm2 = &cublasSnrm2_v2;
    static constexpr auto asum = &cublasSasum_v2;
    static constexpr auto amax = &cublasIsamax_v2;
    static constexpr auto amin = &cublasIsamin_v2;
    static constexpr auto gemv = &cublasSgemv_v2;
    static constexpr auto gemm = &cublasSgemm_v2;
    static constexpr auto gemmS = &cublasSgemmStridedBatched;
    static constexpr auto gemmB = &cublasSgemmBatched;
    static constexpr auto geam = &cublasSgeam;
};
template <> struct B<double> {
    static constexpr const char *name = "D";
    static constexpr auto axpy = &cublasDaxpy_v2;
    static constexpr auto scal = &cublasDscal_v2;
    static constexpr auto copy = &cublasDcopy_v2;
    static constexpr auto swap = &cublasDswap_v2;
    static constexpr auto dot = &cublasDdot_v2;
    static constexpr auto nrm2 = &cublasDnrm2_v2;
    static constexpr auto asum = &cublasDasum_v2;
    static constexpr auto amax = &cublasIdamax_v2;
    static constexpr auto amin = &cublasIdamin_v2;
    static constexpr auto gemv = &cublasDgemv_v2;
    static constexpr auto gemm = &cublasDgemm_v2;
    static constexpr auto gemmS = &cublasDgemmStridedBatched;
    static constexpr auto gemmB = &cublasDgemmBatched;
    static constexpr auto geam = &cublasDgeam;
};

static void st(const char *what, cublasStatus_t s) { printf("%s: %d\n", what, (int)s); }

template <typename T> static void show(const char *what, const T *d, int n) {
    T h[256];
    cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
    printf("%s:", what);
    for (int i = 0; i < n; i++) printf(" %g", (double)h[i]);
    printf("\n");
}

template <typename T> static T *dev(const T *h, int n) {
    T *d;
    cudaMalloc(&d, n * sizeof(T));
    cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <typename T> static void level1(cublasHandle_t h) {
    using K = B<T>;
    printf("== level 1 %s\n", K::name);
    T xv[8] = {3, -1, 4, -1, 5, -9, 2, 6}, yv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    T *x = dev(xv, 8), *y = dev(yv, 8);
    T a = 2, r = -7;
    int ir = -7;
    st("axpy", K::axpy(h, 4, &a, x, 2, y, -1)); show("axpy y", y, 8);
    st("axpy n=0", K::axpy(h, 0, &a, x, 1, y, 1));
    st("axpy n=-1", K::axpy(h, -1, &a, x, 1, y, 1));
    st("dot", K::dot(h, 8, x, 1, y, 1, &r)); printf("dot = %g\n", (double)r);
    st("dot neg", K::dot(h, 4, x, -2, y, 1, &r)); printf("dot neg = %g\n", (double)r);
    r = -7; st("dot n=0", K::dot(h, 0, x, 1, y, 1, &r)); printf("dot n=0 = %g\n", (double)r);
    T nv[5] = {2, 100, 3, 100, 6};
    T *nx = dev(nv, 5);
    st("nrm2", K::nrm2(h, 3, nx, 2, &r)); printf("nrm2 = %g\n", (double)r);
    r = -7; st("nrm2 incx=0", K::nrm2(h, 3, nx, 0, &r)); printf("nrm2 incx=0 = %g\n", (double)r);
    st("asum", K::asum(h, 8, x, 1, &r)); printf("asum = %g\n", (double)r);
    st("asum inc3", K::asum(h, 3, x, 3, &r)); printf("asum inc3 = %g\n", (double)r);
    st("amax", K::amax(h, 8, x, 1, &ir)); printf("amax = %d\n", ir);
    st("amin", K::amin(h, 8, x, 1, &ir)); printf("amin = %d\n", ir);
    st("amax inc2", K::amax(h, 4, x, 2, &ir)); printf("amax inc2 = %d\n", ir);
    ir = -7; st("amax incx=-1", K::amax(h, 4, x, -1, &ir)); printf("amax incx=-1 = %d\n", ir);
    ir = -7; st("amin n=0", K::amin(h, 0, x, 1, &ir)); printf("amin n=0 = %d\n", ir);
    T m3 = -3;
    st("scal", K::scal(h, 3, &m3, x, 2)); show("scal x", x, 8);
    st("scal incx=-1", K::scal(h, 3, &m3, x, -1)); show("scal incx=-1 x", x, 8);
    T zv[8] = {0};
    T *z = dev(zv, 8);
    st("copy", K::copy(h, 4, x, 1, z, -2)); show("copy z", z, 8);
    st("swap", K::swap(h, 3, x, -1, y, 2)); show("swap x", x, 8); show("swap y", y, 8);
    // device pointer mode: alpha and the results in device memory
    T *ds;
    int *di;
    cudaMalloc(&ds, 2 * sizeof(T));
    cudaMalloc(&di, sizeof(int));
    T two[2] = {-2, 0};
    cudaMemcpy(ds, two, sizeof two, cudaMemcpyHostToDevice);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    st("axpy dev", K::axpy(h, 8, ds, x, 1, y, 1)); show("axpy dev y", y, 8);
    st("dot dev", K::dot(h, 8, x, 1, y, 1, ds + 1)); show("dot dev", ds + 1, 1);
    st("amax dev", K::amax(h, 8, y, 1, di));
    int hi = 0;
    cudaMemcpy(&hi, di, sizeof hi, cudaMemcpyDeviceToHost);
    printf("amax dev = %d\n", hi);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    st("dot null result", K::dot(h, 8, x, 1, y, 1, nullptr));
    cudaFree(x); cudaFree(y); cudaFree(z); cudaFree(nx); cudaFree(ds); cudaFree(di);
}

template <typename T> static void level3(cublasHandle_t h) {
    using K = B<T>;
    printf("== level 2/3 %s\n", K::name);
    // A holds 6 x 6 values (ld 6), used as m x k or k x m through lda; B likewise.
    T av[36], bv[36], cv[36];
    for (int i = 0; i < 36; i++) {
        av[i] = (T)((i * 7) % 11 - 5);
        bv[i] = (T)((i * 5) % 9 - 4);
        cv[i] = (T)(i % 4);
    }
    T *A = dev(av, 36), *Bm = dev(bv, 36), *C = dev(cv, 36);
    T alpha = 2, beta = -1, zero = 0;
    cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 3; tb += ta + 1) {
            char what[64];
            cudaMemcpy(C, cv, sizeof cv, cudaMemcpyHostToDevice);
            snprintf(what, sizeof what, "gemm %d%d", ta, tb);
            st(what, K::gemm(h, ops[ta], ops[tb], 3, 4, 5, &alpha, A, 6, Bm, 6, &beta, C, 5));
            show(what, C, 20);
        }
    T nan = NAN, nans[36];
    for (int i = 0; i < 36; i++) nans[i] = nan;
    cudaMemcpy(C, nans, sizeof nans, cudaMemcpyHostToDevice);
    st("gemm beta=0", K::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 3, 2, &alpha, A, 4, Bm, 2, &zero, C, 4));
    show("gemm beta=0", C, 12);
    st("gemm k=0", K::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 0, &alpha, A, 2, Bm, 1, &beta, C, 2));
    show("gemm k=0", C, 4);
    cudaMemcpy(C, cv, sizeof cv, cudaMemcpyHostToDevice);
    st("gemmStridedBatched", K::gemmS(h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 3, 2, &alpha, A, 2, 5, Bm, 3, 7,
                                     &beta, C, 2, 6, 3));
    show("gemmStridedBatched", C, 18);
    T *ap[3] = {A + 1, A + 9, A + 20}, *bp[3] = {Bm, Bm + 12, Bm + 3}, *cp[3] = {C + 18, C, C + 9};
    T **dap, **dbp, **dcp;
    cudaMalloc(&dap, sizeof ap); cudaMalloc(&dbp, sizeof bp); cudaMalloc(&dcp, sizeof cp);
    cudaMemcpy(dap, ap, sizeof ap, cudaMemcpyHostToDevice);
    cudaMemcpy(dbp, bp, sizeof bp, cudaMemcpyHostToDevice);
    cudaMemcpy(dcp, cp, sizeof cp, cudaMemcpyHostToDevice);
    cudaMemcpy(C, cv, sizeof cv, cudaMemcpyHostToDevice);
    st("gemmBatched", K::gemmB(h, CUBLAS_OP_T, CUBLAS_OP_N, 3, 3, 2, &alpha, (const T *const *)dap, 3,
                              (const T *const *)dbp, 2, &beta, dcp, 3, 3));
    show("gemmBatched", C, 27);
    // gemv: y = alpha op(A) x + beta y, A 3 x 4 with lda 5
    T yv[8] = {1, -1, 2, -2, 3, -3, 4, -4};
    T *y = dev(yv, 8);
    st("gemv N", K::gemv(h, CUBLAS_OP_N, 3, 4, &alpha, A, 5, Bm, 2, &beta, y, -1));
    show("gemv N", y, 8);
    st("gemv T", K::gemv(h, CUBLAS_OP_T, 3, 4, &alpha, A, 5, Bm, -1, &beta, y, 2));
    show("gemv T", y, 8);
    cudaMemcpy(y, nans, 8 * sizeof(T), cudaMemcpyHostToDevice);
    st("gemv beta=0", K::gemv(h, CUBLAS_OP_N, 4, 2, &alpha, A, 4, Bm, 1, &zero, y, 1));
    show("gemv beta=0", y, 4);
    // geam: C = alpha op(A) + beta op(B), 3 x 4
    cudaMemcpy(C, nans, sizeof nans, cudaMemcpyHostToDevice);
    st("geam NN", K::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 4, &alpha, A, 4, &beta, Bm, 5, C, 3));
    show("geam NN", C, 12);
    st("geam TN", K::geam(h, CUBLAS_OP_T, CUBLAS_OP_N, 3, 4, &alpha, A, 4, &beta, Bm, 3, C, 3));
    show("geam TN", C, 12);
    st("geam transpose", K::geam(h, CUBLAS_OP_T, CUBLAS_OP_T, 3, 4, &alpha, A, 4, &zero, Bm, 4, C, 3));
    show("geam transpose", C, 12);
    st("geam in place", K::geam(h, CUBLAS_OP_N, CUBLAS_OP_T, 3, 4, &alpha, C, 3, &beta, A, 4, C, 3));
    show("geam in place", C, 12);
    // argument errors
    st("gemm m=-1", K::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &alpha, A, 2, Bm, 2, &beta, C, 2));
    st("gemm lda<m", K::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 2, 2, &alpha, A, 2, Bm, 2, &beta, C, 3));
    st("gemm ldb<k", K::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &alpha, A, 2, Bm, 2, &beta, C, 2));
    st("gemm ldc<m", K::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 2, 2, &alpha, A, 3, Bm, 2, &beta, C, 2));
    st("gemm T lda<k", K::gemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 3, &alpha, A, 2, Bm, 3, &beta, C, 2));
    st("gemm bad op", K::gemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 2, 2, 2, &alpha, A, 2, Bm, 2, &beta, C, 2));
    st("gemm m=0", K::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &alpha, A, 1, Bm, 2, &beta, C, 1));
    st("gemmStridedBatched count=-1", K::gemmS(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, A, 2, 4, Bm, 2,
                                               4, &beta, C, 2, 4, -1));
    st("gemv n=-1", K::gemv(h, CUBLAS_OP_N, 2, -1, &alpha, A, 2, Bm, 1, &beta, y, 1));
    st("gemv lda<m", K::gemv(h, CUBLAS_OP_N, 3, 2, &alpha, A, 2, Bm, 1, &beta, y, 1));
    st("gemv incx=0", K::gemv(h, CUBLAS_OP_N, 2, 2, &alpha, A, 2, Bm, 0, &beta, y, 1));
    st("gemv incy=0", K::gemv(h, CUBLAS_OP_N, 2, 2, &alpha, A, 2, Bm, 1, &beta, y, 0));
    st("geam ldc<m", K::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 2, &alpha, A, 3, &beta, Bm, 3, C, 2));
    st("geam in place T", K::geam(h, CUBLAS_OP_T, CUBLAS_OP_N, 3, 3, &alpha, C, 3, &beta, Bm, 3, C, 3));
    st("gemm null handle", K::gemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, A, 2, Bm, 2, &beta, C, 2));
    cudaFree(A); cudaFree(Bm); cudaFree(C); cudaFree(y); cudaFree(dap); cudaFree(dbp); cudaFree(dcp);
}

static void transfers(cudaStream_t s) {
    printf("== transfers\n");
    float hv[12], back[12];
    for (int i = 0; i < 12; i++) hv[i] = (float)(i * 3 - 10), back[i] = 0;
    float *d;
    cudaMalloc(&d, 64 * sizeof(float));
    cudaMemset(d, 0, 64 * sizeof(float));
    st("SetVector", cublasSetVector(4, sizeof(float), hv, 3, d, 2)); show("SetVector", d, 8);
    st("GetVector", cublasGetVector(4, sizeof(float), d, 1, back, 3));
    printf("GetVector:"); for (int i = 0; i < 12; i++) printf(" %g", back[i]); printf("\n");
    st("SetMatrix", cublasSetMatrix(2, 3, sizeof(float), hv, 4, d + 16, 3)); show("SetMatrix", d + 16, 9);
    memset(back, 0, sizeof back);
    st("GetMatrix", cublasGetMatrix(3, 2, sizeof(float), d + 16, 4, back, 5));
    printf("GetMatrix:"); for (int i = 0; i < 12; i++) printf(" %g", back[i]); printf("\n");
    double dh[4] = {1.5, -2.5, 3.5, -4.5}, dback[4] = {0};
    double *dd;
    cudaMalloc(&dd, 8 * sizeof(double));
    st("SetVectorAsync", cublasSetVectorAsync(4, sizeof(double), dh, 1, dd, 2, s));
    st("GetVectorAsync", cublasGetVectorAsync(4, sizeof(double), dd, 2, dback, 1, s));
    cudaStreamSynchronize(s);
    printf("VectorAsync: %g %g %g %g\n", dback[0], dback[1], dback[2], dback[3]);
    st("SetMatrixAsync", cublasSetMatrixAsync(2, 2, sizeof(double), dh, 2, dd, 3, s));
    st("GetMatrixAsync", cublasGetMatrixAsync(2, 2, sizeof(double), dd, 3, dback, 2, s));
    cudaStreamSynchronize(s);
    printf("MatrixAsync: %g %g %g %g\n", dback[0], dback[1], dback[2], dback[3]);
    st("SetVector incx=0", cublasSetVector(4, sizeof(float), hv, 0, d, 1));
    st("SetVector elemSize=0", cublasSetVector(4, 0, hv, 1, d, 1));
    st("SetMatrix lda<rows", cublasSetMatrix(3, 2, sizeof(float), hv, 2, d, 3));
    st("GetMatrix ldb<rows", cublasGetMatrix(3, 2, sizeof(float), d, 3, back, 2));
    st("SetMatrix rows=-1", cublasSetMatrix(-1, 2, sizeof(float), hv, 2, d, 3));
    cudaFree(d); cudaFree(dd);
}

__global__ void fill(float *x, int n, float add) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = add == 0 ? (float)(i + 1) : x[i] + add;
}

// Part 6: cuBLAS work is ordered with kernels on its stream, and vectors outside device
// memory are refused.
static void ordering(cublasHandle_t h, cudaStream_t s) {
    printf("== ordering\n");
    float *x;
    cudaMalloc(&x, 1000 * sizeof(float));
    fill<<<4, 256, 0, s>>>(x, 1000, 0);
    float two = 2, sum = 0;
    st("scal after kernel", cublasSscal(h, 1000, &two, x, 1));
    fill<<<4, 256, 0, s>>>(x, 1000, 1);
    st("asum after kernels", cublasSasum(h, 1000, x, 1, &sum));
    printf("asum = %.0f\n", (double)sum);
    float *hx = (float *)malloc(8 * sizeof(float)), r = -7;
    for (int i = 0; i < 8; i++) hx[i] = 1;
    st("dot host memory", cublasSdot(h, 8, hx, 1, hx, 1, &r));
    printf("dot host memory = %g\n", (double)r);
    free(hx);
    cudaFree(x);
}

static void statuses() {
    printf("== statuses\n");
    int codes[] = {0, 1, 3, 7, 8, 11, 13, 14, 15, 16};
    for (int c : codes)
        printf("%d %s: %s\n", c, cublasGetStatusName((cublasStatus_t)c),
               cublasGetStatusString((cublasStatus_t)c));
}

// argv[1], when given, runs one part alone: 0 statuses and the handle, 1 transfers,
// 2 and 3 level 1 (float, double), 4 and 5 levels 2 and 3 (float, double), 6 ordering
// with kernels and memory outside the device.
int main(int argc, char **argv) {
    setvbuf(stdout, nullptr, _IONBF, 0); // what was printed survives a hang or a crash
    int part = argc > 1 ? atoi(argv[1]) : -1;
    if (part >= 0) {
        cublasHandle_t h;
        cublasCreate(&h);
        cudaStream_t s;
        cudaStreamCreate(&s);
        cublasSetStream(h, s);
        switch (part) {
        case 0: break;
        case 1: transfers(s); break;
        case 2: level1<float>(h); break;
        case 3: level1<double>(h); break;
        case 4: level3<float>(h); break;
        case 5: level3<double>(h); break;
        case 6: ordering(h, s); break;
        }
        if (part != 0) return 0;
    }
    statuses();
    cublasHandle_t h;
    st("create", cublasCreate(&h));
    int version = 0;
    st("version", cublasGetVersion(h, &version));
    printf("version major %d\n", version / 10000);
    cublasPointerMode_t pm;
    st("get pointer mode", cublasGetPointerMode(h, &pm)); printf("pointer mode %d\n", (int)pm);
    st("set pointer mode 5", cublasSetPointerMode(h, (cublasPointerMode_t)5));
    cublasMath_t mm;
    st("get math mode", cublasGetMathMode(h, &mm)); printf("math mode %d\n", (int)mm);
    st("set math mode", cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
    st("get math mode", cublasGetMathMode(h, &mm)); printf("math mode %d\n", (int)mm);
    cudaStream_t s, got = (cudaStream_t)1;
    cudaStreamCreate(&s);
    st("get stream", cublasGetStream(h, &got)); printf("stream default %d\n", got == 0);
    st("set stream", cublasSetStream(h, s));
    st("get stream", cublasGetStream(h, &got)); printf("stream ours %d\n", got == s);
    st("set stream null handle", cublasSetStream(nullptr, s));
    st("create null", cublasCreate(nullptr));
    if (part == 0) return 0;
    transfers(s);
    level1<float>(h);
    level1<double>(h);
    level3<float>(h);
    level3<double>(h);
    ordering(h, s);
    st("destroy", cublasDestroy(h));
    cudaStreamDestroy(s);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    return 0;
}
