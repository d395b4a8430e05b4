/* tests/unit/prof_test.h — tiny assertion helpers for the prof unit tests. */
#ifndef VCUDA_TESTS_PROF_TEST_H
#define VCUDA_TESTS_PROF_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdint.h>

static int prof_test_failures;

#define EXPECT_EQ(got, want)                                                              \
    do {                                                                                  \
        long long g_ = (long long)(got), w_ = (long long)(want);                          \
        if (g_ != w_) {                                                                   \
            fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got,    \
                    g_, w_);                                                              \
            prof_test_failures++;                                                         \
        }                                                                                 \
    } while (0)

#define EXPECT_NEAR(got, want, tol)                                                       \
    do {                                                                                  \
        double g_ = (double)(got), w_ = (double)(want);                                   \
        if (!(fabs(g_ - w_) <= (tol))) {                                                  \
            fprintf(stderr, "%s:%d: %s = %.6f, want %.6f\n", __FILE__, __LINE__, #got,    \
                    g_, w_);                                                              \
            prof_test_failures++;                                                         \
        }                                                                                 \
    } while (0)

#define EXPECT_STR(got, want)                                                             \
    do {                                                                                  \
        const char *g_ = (got), *w_ = (want);                                             \
        if (!g_ || strcmp(g_, w_) != 0) {                                                 \
            fprintf(stderr, "%s:%d: %s =\n[%s]\nwant\n[%s]\n", __FILE__, __LINE__, #got,  \
                    g_ ? g_ : "(null)", w_);                                              \
            prof_test_failures++;                                                         \
        }                                                                                 \
    } while (0)

static inline int prof_test_finish(const char *name)
{
    if (prof_test_failures) {
        fprintf(stderr, "%s: %d failure(s)\n", name, prof_test_failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

#endif
