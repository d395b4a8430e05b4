/* examples/common.h — small helpers shared by the example programs.
 *
 * Error checking that prints on stdout (so a failure shows up in the compared output),
 * a reproducible pseudo-random generator (the same inputs on every machine, so printed
 * sums never change), and timing that is printed only when EXAMPLE_TIMING is set in the
 * environment: the default output must be identical run to run and on every device.
 */
#ifndef EXAMPLES_COMMON_H
#define EXAMPLES_COMMON_H

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <sys/time.h>
#include <cuda_runtime.h>

/* Report a failed runtime call (its name and text, and the source line) and stop. */
#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t check_err_ = (call);                                              \
        if (check_err_ != cudaSuccess) {                                              \
            printf("CUDA error at line %d: %s: %s\n", __LINE__,                       \
                   cudaGetErrorName(check_err_), cudaGetErrorString(check_err_));     \
            fflush(stdout);                                                           \
            exit(EXIT_FAILURE);                                                       \
        }                                                                             \
    } while (0)

/* A 32-bit linear congruential generator; callers keep the state. Bit k of such a
 * generator repeats with period 2^(k+1), so only the top 16 bits are returned: the low
 * byte of the result then has period 2^24, longer than any input here. */
static inline uint32_t example_rand(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 16;
}

/* Wall-clock seconds (host). */
static inline double example_seconds(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec * 1.0e-6;
}

/* Whether timings are wanted (EXAMPLE_TIMING set to anything). */
static inline bool example_timing(void)
{
    return getenv("EXAMPLE_TIMING") != NULL;
}

/* Print " elapsed <s> sec" when timings are wanted, nothing otherwise. */
static inline void example_print_elapsed(double seconds)
{
    if (example_timing())
        printf(" elapsed %.6f sec", seconds);
}

/* Print " (<ms> ms)" for an event-measured interval when timings are wanted. */
static inline void example_print_ms(float ms)
{
    if (example_timing())
        printf(" (%.3f ms)", ms);
}

#endif
