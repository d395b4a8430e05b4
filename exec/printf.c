/* exec/printf.c — device printf (the vprintf builtin) and the block's output buffer.
 *
 * nvcc packs printf's arguments into a local buffer, each aligned to its own size:
 * integers of 4 bytes (8 with l/ll), doubles (floats are promoted), pointers of 8 bytes.
 * The format is interpreted here conversion by conversion and each piece printed with the
 * host's snprintf, so flags, width, precision and length modifiers behave as in C.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>

/* Append n bytes to a growing NUL-terminated buffer. */
static void buf_append(char **data, size_t *len, size_t *cap, const char *s, size_t n) {
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 256;
        while (c < *len + n + 1) c *= 2;
        char *d = realloc(*data, c);
        if (!d) return; /* out of host memory: the output is lost, not the program */
        *data = d;
        *cap = c;
    }
    memcpy(*data + *len, s, n);
    *len += n;
    (*data)[*len] = 0;
}

void exec_output_append(exec_output *o, const char *s, size_t n) {
    if (!o || !n) return;
    buf_append(&o->data, &o->len, &o->cap, s, n);
}

static void output_vprintf(exec_output *o, bool err, const char *fmt, va_list ap) {
    char buf[1024], *text = buf;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n >= 0 && (size_t)n >= sizeof buf) {
        text = malloc((size_t)n + 1);
        if (text) vsnprintf(text, (size_t)n + 1, fmt, ap2);
    }
    va_end(ap2);
    if (n <= 0 || !text || !o) {
        if (text != buf) free(text);
        return;
    }
    if (err) buf_append(&o->err, &o->err_len, &o->err_cap, text, (size_t)n);
    else buf_append(&o->data, &o->len, &o->cap, text, (size_t)n);
    if (text != buf) free(text);
}

void exec_output_printf(exec_output *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    output_vprintf(o, false, fmt, ap);
    va_end(ap);
}

void exec_output_err_printf(exec_output *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    output_vprintf(o, true, fmt, ap);
    va_end(ap);
}

typedef struct argbuf {
    exec_wstate *w;
    const exec_insn *in;
    uint32_t lane;
    uint64_t base, off;
    bool failed;
} argbuf;

static uint64_t next_arg(argbuf *a, unsigned size) {
    a->off = (a->off + size - 1) / size * size;
    uint64_t v = 0;
    if (!a->base) {
        a->failed = true;
        return 0;
    }
    const void *p = exec_mem_addr(a->w, a->in, a->lane, PTX_SPACE_GENERIC, a->base + a->off,
                                  size, EXEC_ACC_READ);
    if (!p) {
        a->failed = true;
        return 0;
    }
    memcpy(&v, p, size);
    a->off += size;
    return v;
}

/* Room for a conversion rebuilt for the host's snprintf: flags (20), width and precision
 * (each at most 16 digits when written out, 11 when taken from '*'), length and conversion. */
#define SPEC_MAX 80

/* Widths and precisions beyond this are cut to it: a conversion's output is at most a line
 * buffer long anyway, and formatting a width of 10^15 would only burn time and memory. */
#define FIELD_MAX 512

/* A width or precision: '*' takes it from the arguments, otherwise the digits as written;
 * either cut to FIELD_MAX (a negative '*' width keeps its sign: left-justified). */
static void number_field(argbuf *a, const char *fmt, long flen, long *i, char *spec, size_t *sl,
                         int *nargs) {
    long v;
    if (*i < flen && fmt[*i] == '*') {
        v = (int)(uint32_t)next_arg(a, 4);
        (*nargs)++;
        (*i)++;
    } else {
        if (*i >= flen || fmt[*i] < '0' || fmt[*i] > '9') return;
        v = 0;
        while (*i < flen && fmt[*i] >= '0' && fmt[*i] <= '9') {
            if (v <= FIELD_MAX) v = v * 10 + (fmt[*i] - '0');
            (*i)++;
        }
    }
    if (v > FIELD_MAX) v = FIELD_MAX;
    if (v < -FIELD_MAX) v = -FIELD_MAX;
    *sl += (size_t)snprintf(spec + *sl, SPEC_MAX - *sl, "%ld", v);
}

int exec_vprintf_lane(exec_wstate *w, const exec_insn *in, uint32_t lane, uint64_t fmt_addr,
                      uint64_t args) {
    struct exec_block *b = w->h.block;
    if (!fmt_addr) return -1;
    const char *fmt;
    long flen = exec_mem_string(w, lane, fmt_addr, &fmt);
    if (flen < 0) {
        exec_fault_at(&w->h, in, lane, EXEC_FAULT_ILLEGAL_ADDRESS,
                      "printf format string is at an invalid address");
        return -1;
    }
    argbuf a = {w, in, lane, args, 0, false};
    /* collect the whole line first so one printf call's output stays together */
    exec_output line = {0};
    int nargs = 0;
    long i = 0;
    while (i < flen) {
        long start = i;
        while (i < flen && fmt[i] != '%') i++;
        exec_output_append(&line, fmt + start, (size_t)(i - start));
        if (i >= flen) break;
        /* a conversion: %[flags][width][.precision][length]conv */
        char spec[SPEC_MAX];
        size_t sl = 0;
        long pct = i;
        spec[sl++] = '%';
        i++;
        while (i < flen && strchr("-+ #0", fmt[i]) && sl < 20) spec[sl++] = fmt[i++];
        number_field(&a, fmt, flen, &i, spec, &sl, &nargs);
        if (i < flen && fmt[i] == '.') {
            spec[sl++] = fmt[i++];
            number_field(&a, fmt, flen, &i, spec, &sl, &nargs);
        }
        int longs = 0, shorts = 0;
        while (i < flen && strchr("hlLqjzt", fmt[i])) {
            char c = fmt[i++];
            if (c == 'h') shorts++;
            else if (c == 'l' || c == 'q') longs++;
            else longs = 2; /* L j z t: 64-bit on the device */
        }
        if (i >= flen) break;
        char conv = fmt[i++];
        char out[512];
        int n = 0;
        switch (conv) {
        case '%':
            exec_output_append(&line, "%", 1);
            continue;
        case 'd': case 'i': {
            int64_t v = longs ? (int64_t)next_arg(&a, 8) : (int32_t)(uint32_t)next_arg(&a, 4);
            if (shorts == 1) v = (int16_t)v;
            else if (shorts >= 2) v = (int8_t)v;
            memcpy(spec + sl, "lld", 4);
            n = snprintf(out, sizeof out, spec, (long long)v);
            break;
        }
        case 'u': case 'x': case 'X': case 'o': {
            uint64_t v = longs ? next_arg(&a, 8) : (uint32_t)next_arg(&a, 4);
            if (shorts == 1) v = (uint16_t)v;
            else if (shorts >= 2) v = (uint8_t)v;
            spec[sl] = 'l'; spec[sl + 1] = 'l'; spec[sl + 2] = conv; spec[sl + 3] = 0;
            n = snprintf(out, sizeof out, spec, (unsigned long long)v);
            break;
        }
        case 'c': {
            int v = (int)(uint32_t)next_arg(&a, longs ? 8 : 4);
            spec[sl] = 'c'; spec[sl + 1] = 0;
            n = snprintf(out, sizeof out, spec, v); /* a NUL character is printed too */
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            uint64_t bits = next_arg(&a, 8);
            double v;
            memcpy(&v, &bits, 8);
            spec[sl] = conv; spec[sl + 1] = 0;
            n = snprintf(out, sizeof out, spec, v);
            break;
        }
        case 's': {
            uint64_t p = next_arg(&a, 8);
            const char *s = "(null)";
            char *tmp = NULL;
            if (p) {
                const char *hs;
                long n = exec_mem_string(w, lane, p, &hs);
                if (n < 0) {
                    s = "(invalid)";
                } else {
                    tmp = malloc((size_t)n + 1);
                    if (tmp) {
                        memcpy(tmp, hs, (size_t)n);
                        tmp[n] = 0;
                        s = tmp;
                    }
                }
            }
            spec[sl] = 's'; spec[sl + 1] = 0;
            n = snprintf(NULL, 0, spec, s);
            if (n > 0) {
                char *big = malloc((size_t)n + 1);
                if (big) {
                    snprintf(big, (size_t)n + 1, spec, s);
                    exec_output_append(&line, big, (size_t)n);
                    free(big);
                }
            }
            free(tmp);
            nargs++;
            continue;
        }
        case 'p': {
            uint64_t v = next_arg(&a, 8);
            spec[sl] = 'p'; spec[sl + 1] = 0;
            n = snprintf(out, sizeof out, spec, (void *)(uintptr_t)v);
            break;
        }
        case 'n':
            nargs++; /* writing through device pointers from printf is not supported */
            continue;
        default: /* not a conversion: print it as written */
            exec_output_append(&line, fmt + pct, (size_t)(i - pct));
            continue;
        }
        nargs++;
        if (n > 0) exec_output_append(&line, out, n < (int)sizeof out ? (size_t)n : sizeof out - 1);
        if (a.failed) break;
    }
    if (a.failed && w->h.fault) {
        free(line.data);
        return -1;
    }
    exec_output_append(b->out, line.data, line.len);
    free(line.data);
    return nargs;
}
