/* tests/unit/test_files.h — a whole file read into memory, for the unit tests. */
#ifndef VCUDA_TEST_FILES_H
#define VCUDA_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of the file at path, NUL-terminated, their count in *len (when len is given);
 * NULL (and why on stderr) when it cannot be opened or read whole. Free the result. */
static inline char *test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    char *s = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (!s) {
        fprintf(stderr, "%s: cannot read it whole\n", path);
        return NULL;
    }
    s[n] = 0;
    if (len) *len = (size_t)n;
    return s;
}

#endif
