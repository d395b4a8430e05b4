/* Unit test: kernel names demangled the way compute-sanitizer prints them. */
#include <stdio.h>
#include <string.h>

#include "check/internal.h"

static int failures;

static void expect(const char *mangled, const char *want) {
    char got[512];
    check_demangle(mangled, got, sizeof got);
    if (strcmp(got, want)) {
        fprintf(stderr, "FAIL: %s -> \"%s\", expected \"%s\"\n", mangled, got, want);
        failures++;
    }
}

int main(void) {
    expect("_Z17fillNoBoundsCheckPim", "fillNoBoundsCheck(int *, unsigned long)");
    expect("_Z14readMisalignedPKcPi", "readMisaligned(const char *, int *)");
    expect("_Z23neighbourWithoutBarrierPi", "neighbourWithoutBarrier(int *)");
    expect("_Z16reduceNeighboredPiS_j", "reduceNeighbored(int *, int *, unsigned int)");
    expect("_Z12matMultNaivePKfS0_iPf",
           "matMultNaive(const float *, const float *, int, float *)");
    expect("_Z20reduceCompleteUnrollILj512EEvPiS0_j",
           "void reduceCompleteUnroll<512u>(int *, int *, unsigned int)");
    expect("_Z17reduceGridStrideTILj64EEvPiPKim",
           "void reduceGridStrideT<64u>(int *, const int *, unsigned long)");
    expect("_Z6kernelv", "kernel()");
    expect("_ZN2ns6kernelEPKdRi", "ns::kernel(const double *, int &)");
    expect("_Z1fIfEvPT_S1_", "void f<float>(float *, float *)");
    expect("_Z1gPPcPKPKc", "g(char **, const char *const *)");
    expect("_Z1hILi3ELb1EEvv", "void h<3, true>()");
    /* not mangled, or beyond the subset: shown as they are */
    expect("plainKernel", "plainKernel");
    expect("_Z1kPFviE", "_Z1kPFviE");
    if (failures) return 1;
    printf("test_check_demangle: ok\n");
    return 0;
}
