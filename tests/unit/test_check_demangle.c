/* Unit test: kernel names demangled by the one routine (ptx/demangle.c) in both spellings:
 * compute-sanitizer's for `vcuda check`, the C++ runtime's for the profiler's reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/demangle.h"

static int failures;

static void expect_style(const char *mangled, ptx_demangle_style style, const char *want) {
    char got[512];
    ptx_demangle_into(mangled, style, got, sizeof got);
    if (strcmp(got, want)) {
        fprintf(stderr, "FAIL: %s -> \"%s\", expected \"%s\"\n", mangled, got, want);
        failures++;
    }
}

static void expect(const char *mangled, const char *want) {
    expect_style(mangled, PTX_DEMANGLE_SANITIZER, want);
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
    /* what the former subset demangler gave up on: function types, operators, packs,
     * qualifiers of several kinds, rvalue references, class templates */
    expect("_Z1kPFviE", "k(void (*)(int))");
    expect("_Z1fPVKi", "f(const volatile int *)");
    expect("_Z1kPKPi", "k(int *const *)");
    expect("_Z1fOi", "f(int &&)");
    expect("_Z1fIJifEEvDpT_", "void f<int, float>(int, float)");
    expect("_ZNK1A1fEv", "A::f() const");
    expect("_ZN1AplERKS_", "A::operator+(const A &)");
    expect("_Z1fRKSt6vectorIiSaIiEE", "f(const std::vector<int, std::allocator<int> > &)");
    expect("_Z2k2IN4test4vec3EEvPT_", "void k2<test::vec3>(test::vec3 *)");
    expect("_Z1fIPKcEvT_", "void f<const char *>(const char *)");
    /* the profiler's spelling is the C++ runtime's own */
    expect_style("_Z1gPPcPKPKc", PTX_DEMANGLE_GNU, "g(char**, char const* const*)");
    expect_style("_Z20reduceCompleteUnrollILj512EEvPiS0_j", PTX_DEMANGLE_GNU,
                 "void reduceCompleteUnroll<512u>(int*, int*, unsigned int)");
    /* not mangled, or not valid: shown as they are; cut to fit */
    expect("plainKernel", "plainKernel");
    expect("_Zbogus", "_Zbogus");
    expect(NULL, "?");
    char small[8];
    ptx_demangle_into("_Z17fillNoBoundsCheckPim", PTX_DEMANGLE_SANITIZER, small, sizeof small);
    if (strcmp(small, "fillNoB")) {
        fprintf(stderr, "FAIL: cut to \"%s\"\n", small);
        failures++;
    }
    if (ptx_demangle("plain", PTX_DEMANGLE_GNU) != NULL) {
        fprintf(stderr, "FAIL: an unmangled name demangled\n");
        failures++;
    }
    if (failures) return 1;
    printf("test_check_demangle: ok\n");
    return 0;
}
