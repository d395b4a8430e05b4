/* tools/rdc.c — `vcuda cc` for relocatable device code (nvcc -rdc=true, separate
 * compilation): the device-link step, done without nvlink.
 *
 * An object compiled with -rdc=true does not register its device code itself: its start-up
 * code calls __cudaRegisterLinkedBinary_<module id>, a function nvcc's device-link step
 * (nvcc -dlink: nvlink, then crt/link.stub compiled with the list of module ids) defines
 * for every object of the program. nvcc skips that step under `-cudart none`, so the host
 * link would fail with those functions undefined. vcuda does not need nvlink's machine
 * code: it links the objects' PTX itself when the program starts (runtime/rdc.c). So here:
 *   1. every source is compiled to an object (nvcc -c with the user's options);
 *   2. the objects and archives are scanned (nm) for the __cudaRegisterLinkedBinary_<id>
 *      they call and no input defines;
 *   3. a small C file defining each of them is generated and compiled: each hands its
 *      object's fatbin to __cudaRegisterFatBinary in a version-2 (device-linked) wrapper
 *      {magic, 2, no linked image, {the object's fatbin, NULL}}, then calls the object's
 *      callback with the handle, as link.stub does;
 *   4. everything is linked by nvcc (-cudart none) against libvcuda.
 * -lcudadevrt is dropped: libvcuda serves the device runtime.
 * A static library of relocatable device code (`nvcc -lib`, or `ar` of -dc objects), given
 * as a .a input or found through -l and -L, is device-linked as nvlink does it: its
 * members' device code joins the program even when no host code calls into them (a
 * library of __device__ functions has no host symbol the host linker would pull them
 * for). So each member with device code is kept in the host link (-u of its fatbin
 * wrapper, a global symbol every such object defines); its start-up code then registers
 * that code with the rest.
 */
#include "tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RDC_SYMBOL_PREFIX "__cudaRegisterLinkedBinary_"
#define RDC_WRAPPER_PREFIX "__fatbinwrap_"

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static bool push(strlist *l, char *s) {
    if (l->n + 1 >= l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) return false;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    l->v[l->n] = NULL;
    return true;
}

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Objects and libraries go to the link as they are; every other input is a source that
 * nvcc compiles (as CUDA or host code, by its name or -x). */
static bool is_object(const char *path) {
    return has_suffix(path, ".o") || has_suffix(path, ".a") || has_suffix(path, ".obj");
}
static bool is_link_input(const char *path) {
    return is_object(path) || has_suffix(path, ".so") || strstr(path, ".so.") != NULL;
}

/* Run argv and collect its standard output (NUL-terminated, malloc'd) in *out. */
static int capture(char *const *argv, char **out) {
    *out = NULL;
    int fd[2];
    if (pipe(fd) != 0) return 127;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return 127;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "vcuda cc: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    for (;;) {
        if (buf && len + 1 >= cap) {
            char *n = realloc(buf, cap * 2);
            if (!n) {
                free(buf);
                buf = NULL;
            } else {
                buf = n;
                cap *= 2;
            }
        }
        char scratch[4096];
        ssize_t k = read(fd[0], buf ? buf + len : scratch, buf ? cap - len - 1 : sizeof scratch);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        if (buf) len += (size_t)k;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 127;
    if (!buf) return 127;
    buf[len] = 0;
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static bool in_strlist(const strlist *l, const char *s) {
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0) return true;
    return false;
}

/* The module ids of objects whose registration function is called but not defined, from
 * `nm -P`: "name type ..." lines under a header per file ("main.o:") or archive member
 * ("lib.a[member.o]:"). The ids of archive members (those that also define their fatbin
 * wrapper) go to *members too. */
static int find_module_ids(char **objects, size_t nobjects, strlist *ids, strlist *members,
                           bool verbose) {
    strlist cmd = {0};
    push(&cmd, "nm");
    push(&cmd, "-P");
    for (size_t i = 0; i < nobjects; i++) push(&cmd, objects[i]);
    if (verbose) tool_print_command(cmd.v);
    char *text;
    int rc = capture(cmd.v, &text);
    free(cmd.v);
    if (rc != 0) {
        fprintf(stderr, "vcuda cc: nm failed on the program's objects\n");
        free(text);
        return rc ? rc : 1;
    }
    strlist defined = {0}, called = {0}, wrappers = {0}, member_called = {0};
    bool in_archive = false;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t len = strlen(line);
        if (len && line[len - 1] == ':' && !strchr(line, ' ')) {
            /* a file's header ("main.o:") or an archive member's ("lib.a[m.o]:") */
            in_archive = strchr(line, '[') != NULL;
            continue;
        }
        char *sym = strstr(line, "]: "); /* nm -A form: "lib.a[m.o]: name type ..." */
        bool member = in_archive || sym != NULL;
        sym = sym ? sym + 3 : line;
        char *end = strchr(sym, ' ');
        if (!end) continue;
        *end = 0;
        char type = end[1];
        if (member && !strncmp(sym, RDC_WRAPPER_PREFIX, strlen(RDC_WRAPPER_PREFIX)) && type != 'U')
            push(&wrappers, sym + strlen(RDC_WRAPPER_PREFIX));
        if (strncmp(sym, RDC_SYMBOL_PREFIX, strlen(RDC_SYMBOL_PREFIX)) != 0) continue;
        push(type == 'U' ? &called : &defined, sym);
        if (type == 'U' && member) push(&member_called, sym + strlen(RDC_SYMBOL_PREFIX));
    }
    int result = 0;
    for (size_t i = 0; i < called.n; i++) {
        const char *id = called.v[i] + strlen(RDC_SYMBOL_PREFIX);
        if (in_strlist(&defined, called.v[i]) || in_strlist(ids, id)) continue;
        char *copy = strdup(id);
        if (!copy || !push(ids, copy)) result = 1;
    }
    for (size_t i = 0; i < member_called.n; i++) {
        const char *id = member_called.v[i];
        if (!in_strlist(&wrappers, id) || in_strlist(members, id)) continue;
        char *copy = strdup(id);
        if (!copy || !push(members, copy)) result = 1;
    }
    free(defined.v);
    free(called.v);
    free(wrappers.v);
    free(member_called.v);
    free(text);
    return result;
}

/* The C file defining the registration function of every module id. */
static bool write_registration(const char *path, const strlist *ids) {
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f,
            "/* Written by `vcuda cc`: the device-link registration of %zu relocatable objects.\n"
            " * Each object's start-up code calls its __cudaRegisterLinkedBinary_<id>; it hands\n"
            " * the object's fatbin to libvcuda as a device-linked (version 2) wrapper, which\n"
            " * links the PTX of all objects into one program, then lets the object register\n"
            " * its kernels and variables. */\n"
            "typedef struct vcuda_wrapper {\n"
            "    int magic, version;\n"
            "    const void *data;\n"
            "    const void **prelinked;\n"
            "} vcuda_wrapper;\n"
            "extern void **__cudaRegisterFatBinary(void *wrapper);\n"
            "extern void __cudaRegisterFatBinaryEnd(void **handle);\n"
            "\n"
            "static void vcuda_register_object(vcuda_wrapper *linked, const void **list,\n"
            "                                  void (*callback)(void **), void *object) {\n"
            "    list[0] = ((const vcuda_wrapper *)object)->data;\n"
            "    list[1] = 0;\n"
            "    linked->magic = 0x466243b1;\n"
            "    linked->version = 2;\n"
            "    linked->data = 0;\n"
            "    linked->prelinked = list;\n"
            "    void **handle = __cudaRegisterFatBinary(linked);\n"
            "    callback(handle);\n"
            "    __cudaRegisterFatBinaryEnd(handle);\n"
            "}\n"
            "\n"
            "#define VCUDA_OBJECT(id)                                                         \\\n"
            "    void __cudaRegisterLinkedBinary_##id(void (*callback)(void **), void *object, \\\n"
            "                                         void *module_id, void (*ref)(void *)) { \\\n"
            "        static vcuda_wrapper linked;                                             \\\n"
            "        static const void *list[2];                                              \\\n"
            "        (void)module_id;                                                         \\\n"
            "        (void)ref;                                                               \\\n"
            "        vcuda_register_object(&linked, list, callback, object);                  \\\n"
            "    }\n\n",
            ids->n);
    for (size_t i = 0; i < ids->n; i++) fprintf(f, "VCUDA_OBJECT(%s)\n", ids->v[i]);
    return fclose(f) == 0;
}

static bool is_cudadevrt(char **args, size_t i, size_t n, size_t *skip) {
    const char *a = args[i];
    *skip = 0;
    if (!strcmp(a, "-lcudadevrt") || !strcmp(a, "--library=cudadevrt")) return true;
    if ((!strcmp(a, "-l") || !strcmp(a, "--library")) && i + 1 < n &&
        !strcmp(args[i + 1], "cudadevrt")) {
        *skip = 1;
        return true;
    }
    return false;
}

/* The static library -l<name> names, searched in the -L folders in order as the host
 * linker does (a folder holding lib<name>.so gives the shared one, which is not scanned;
 * -l:<file> names the file itself): a malloc'd path, or NULL. */
static char *find_static_library(const strlist *dirs, const char *name) {
    bool exact = name[0] == ':';
    if (exact && !has_suffix(name, ".a")) return NULL;
    for (size_t i = 0; i < dirs->n; i++) {
        size_t len = strlen(dirs->v[i]) + strlen(name) + 16;
        char *path = malloc(len);
        if (!path) return NULL;
        if (!exact) {
            snprintf(path, len, "%s/lib%s.so", dirs->v[i], name);
            if (access(path, F_OK) == 0) {
                free(path);
                return NULL;
            }
        }
        if (exact) snprintf(path, len, "%s/%s", dirs->v[i], name + 1);
        else snprintf(path, len, "%s/lib%s.a", dirs->v[i], name);
        if (access(path, F_OK) == 0) return path;
        free(path);
    }
    return NULL;
}

/* The value of a -L/-l style option at args[i] (joined, "=", or the next argument), with
 * *skip set to the arguments it took beyond args[i]; NULL when args[i] is not one. */
static const char *short_or_long(char **args, size_t i, size_t n, const char *shrt,
                                 const char *lng, size_t *skip) {
    const char *a = args[i];
    size_t k = strlen(shrt), kl = strlen(lng);
    *skip = 0;
    if (!strncmp(a, lng, kl) && a[kl] == '=') return a + kl + 1;
    if (!strcmp(a, lng) || !strcmp(a, shrt)) {
        if (i + 1 >= n) return NULL;
        *skip = 1;
        return args[i + 1];
    }
    if (!strncmp(a, shrt, k) && a[k]) return a + k + (a[k] == '=');
    return NULL;
}

int tool_cc_rdc(char **opts, size_t nopts, char **inputs, size_t ninputs, const char *output,
                char **link_flags, size_t nlink, bool verbose) {
    char dirbuf[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(dirbuf, sizeof dirbuf, "%s/vcuda-cc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *dir = mkdtemp(dirbuf);
    if (!dir) {
        fprintf(stderr, "vcuda cc: cannot make a temporary folder: %s\n", strerror(errno));
        return 1;
    }
    strlist opt = {0}, objects = {0}, ids = {0}, owned = {0}, cmd = {0}, members = {0};
    strlist libdirs = {0}, libnames = {0}, owned_paths = {0};
    int rc = 0;
    for (size_t i = 0; i < nopts; i++) {
        size_t skip;
        if (is_cudadevrt(opts, i, nopts, &skip)) {
            i += skip;
            continue;
        }
        const char *v;
        if ((v = short_or_long(opts, i, nopts, "-L", "--library-path", &skip)))
            push(&libdirs, (char *)v);
        else if ((v = short_or_long(opts, i, nopts, "-l", "--library", &skip)))
            push(&libnames, (char *)v);
        push(&opt, opts[i]);
    }

    /* 1. sources to objects */
    for (size_t i = 0; i < ninputs && rc == 0; i++) {
        if (is_link_input(inputs[i])) {
            push(&objects, inputs[i]);
            continue;
        }
        char *obj = malloc(strlen(dir) + 32);
        snprintf(obj, strlen(dir) + 32, "%s/object%zu.o", dir, i);
        push(&owned, obj);
        push(&objects, obj);
        cmd.n = 0;
        for (size_t k = 0; k < opt.n; k++) push(&cmd, opt.v[k]);
        push(&cmd, "-c");
        push(&cmd, inputs[i]);
        push(&cmd, "-o");
        push(&cmd, obj);
        if (verbose) tool_print_command(cmd.v);
        rc = tool_spawn_wait(cmd.v);
    }

    /* 2. which objects need a registration function */
    strlist scan = {0};
    for (size_t i = 0; i < objects.n; i++)
        if (is_object(objects.v[i])) push(&scan, objects.v[i]);
    for (size_t i = 0; i < libnames.n; i++) {
        char *lib = find_static_library(&libdirs, libnames.v[i]);
        if (!lib) continue;
        push(&owned_paths, lib);
        push(&scan, lib);
    }
    if (rc == 0 && scan.n) rc = find_module_ids(scan.v, scan.n, &ids, &members, verbose);
    free(scan.v);

    /* 3. the registration functions */
    if (rc == 0 && ids.n) {
        char *src = malloc(strlen(dir) + 32), *obj = malloc(strlen(dir) + 32);
        snprintf(src, strlen(dir) + 32, "%s/vcuda_dlink.c", dir);
        snprintf(obj, strlen(dir) + 32, "%s/vcuda_dlink.o", dir);
        push(&owned, src);
        push(&owned, obj);
        if (!write_registration(src, &ids)) {
            fprintf(stderr, "vcuda cc: cannot write %s\n", src);
            rc = 1;
        } else {
            cmd.n = 0;
            push(&cmd, opt.v[0]); /* nvcc compiles it with the host compiler */
            push(&cmd, "-c");
            push(&cmd, src);
            push(&cmd, "-o");
            push(&cmd, obj);
            if (verbose) tool_print_command(cmd.v);
            rc = tool_spawn_wait(cmd.v);
            push(&objects, obj);
        }
    }

    /* 4. the link */
    if (rc == 0) {
        cmd.n = 0;
        for (size_t k = 0; k < opt.n; k++) push(&cmd, opt.v[k]);
        for (size_t k = 0; k < objects.n; k++) push(&cmd, objects.v[k]);
        if (output) {
            push(&cmd, "-o");
            push(&cmd, (char *)output);
        }
        for (size_t k = 0; k < nlink; k++) push(&cmd, link_flags[k]);
        for (size_t k = 0; k < members.n; k++) {
            /* keep the archive member: -Xlinker --undefined=__fatbinwrap_<id> */
            size_t len = strlen(members.v[k]) + sizeof "--undefined=" RDC_WRAPPER_PREFIX;
            char *u = malloc(len);
            if (!u) continue;
            snprintf(u, len, "--undefined=" RDC_WRAPPER_PREFIX "%s", members.v[k]);
            push(&owned_paths, u);
            push(&cmd, "-Xlinker");
            push(&cmd, u);
        }
        if (verbose) tool_print_command(cmd.v);
        rc = tool_spawn_wait(cmd.v);
    }

    for (size_t i = 0; i < owned.n; i++) {
        unlink(owned.v[i]);
        free(owned.v[i]);
    }
    rmdir(dir);
    for (size_t i = 0; i < owned_paths.n; i++) free(owned_paths.v[i]);
    for (size_t i = 0; i < members.n; i++) free(members.v[i]);
    free(owned_paths.v);
    free(members.v);
    free(libdirs.v);
    free(libnames.v);
    for (size_t i = 0; i < ids.n; i++) free(ids.v[i]);
    free(opt.v);
    free(objects.v);
    free(ids.v);
    free(owned.v);
    free(cmd.v);
    return rc;
}
