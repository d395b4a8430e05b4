/* tests/driver/cu_check.h — the driver-API test programs' one check: a call that does not
 * return CUDA_SUCCESS prints the call, the error's name and number and the line, and ends
 * the program with status 1 (the expected outputs hold no such line, so any failure shows
 * as a difference). Included by quoted path, so the capture scripts in gpu/ that build a
 * program alone with nvcc find it beside the source. */
#ifndef VCUDA_TESTS_DRIVER_CU_CHECK_H
#define VCUDA_TESTS_DRIVER_CU_CHECK_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CU(call)                                                                           \
    do {                                                                                   \
        CUresult r_ = (call);                                                              \
        if (r_ != CUDA_SUCCESS) {                                                          \
            const char *name_ = NULL;                                                      \
            cuGetErrorName(r_, &name_);                                                    \
            printf("%s failed: %s (%d) at line %d\n", #call, name_ ? name_ : "?", (int)r_, \
                   __LINE__);                                                              \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#endif
