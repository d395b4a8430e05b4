// Module variables with initializers: scalars, arrays, pointers (generic relocations), function
// pointers, __managed__, strings, 2-D arrays; a packed struct holding a pointer (byte masks).
__device__ int gx = 5;
__device__ int garr[4] = {1,2,3,4};
__device__ int *gp = &gx;
__device__ int *gpa[2] = {&garr[1], &gx};
struct S { int a; int *p; char c; int *q; };
__device__ S gs = {7, &garr[2], 'x', &gx};
__device__ double gd[2] = {1.5, -2.0};
__device__ float gf = 3.25f;
__device__ __managed__ int mv = 3;
__device__ void (*fp)(int*);
__device__ void f1(int *x) { *x = 1; }
__device__ void f2(int *x) { *x = 2; }
__device__ void (*fps[2])(int*) = {f1, f2};
__device__ int g2d[2][3] = {{1,2,3},{4,5,6}};
__device__ short gsh[3] = {-1, 2, 3};
__device__ const char *gstr = "hello";
__global__ void k(int i, int *out) { fps[i & 1](out); out[1] = *gp + gs.a + *gs.q + mv + g2d[i&1][i%3] + gsh[i%3]; if (gstr[i]) out[2] = 1; }
struct __attribute__((packed)) Packed { char c; int *p; short s; };
__device__ Packed gpacked = {'a', &garr[1], 3};
__global__ void kp(int *o) { o[0] = *gpacked.p + gpacked.s; }
