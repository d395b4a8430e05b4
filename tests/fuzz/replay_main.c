/* tests/fuzz/replay_main.c — runs a fuzz target over files, without libFuzzer.
 *
 * Linked with each target in every build, so that the inputs the fuzzers once crashed on
 * (tests/fuzz/regressions/<target>/) and the seed corpus run as ordinary tests, under
 * the sanitizers too. Arguments: files or directories of inputs. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        fprintf(stderr, "cannot read %s\n", path);
        free(buf);
        fclose(f);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)(n > 0 ? n : 0));
    free(buf);
    return 0;
}

static int run_path(const char *path, unsigned *count) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "no such input: %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (!d) return 1;
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        bad |= run_path(sub, count);
    }
    closedir(d);
    return bad;
}

int main(int argc, char **argv) {
    unsigned count = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) bad |= run_path(argv[i], &count);
    printf("%s: %u inputs replayed\n", argv[0], count);
    return bad;
}
