/* runtime/fatbin.c — reading the device code nvcc embeds in a program.
 *
 * Layout (little-endian), as nvcc 13 writes it:
 *   container: u32 magic 0xBA55ED50, u16 version, u16 header size, u64 payload size;
 *              containers may follow one another; the payload is a run of entries.
 *   entry:     u16 kind (1 = PTX, 2 = ELF/SASS), u16 version, u32 header size,
 *              u64 payload size (padded), u32 compressed size (at 16), u32 PTX/ELF format
 *              version (at 24), u32 architecture sm_XX as XX (at 28), u64 flags (at 40),
 *              u64 uncompressed size (at 56); entries are walked by their header size.
 *   flags:     0x8000 = payload is a zstd frame (--compress-mode=default/size),
 *              0x2000 = payload is an LZ4 block (--compress-mode=speed).
 * Every size is checked against the end of the image: a malformed fatbin is an error
 * message, never a read past the end.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define RT_CONTAINER_MAGIC 0xBA55ED50u
#define RT_CONTAINER_HEADER 16u
#define RT_ENTRY_MIN_HEADER 32u       /* up to and including the architecture */
#define RT_ENTRY_OFF_COMPRESSED 16u
#define RT_ENTRY_OFF_ARCH 28u
#define RT_ENTRY_OFF_FLAGS 40u
#define RT_ENTRY_OFF_UNCOMPRESSED 56u
#define RT_FLAG_LZ4 0x2000u
#define RT_FLAG_ZSTD 0x8000u
/* No PTX module is this large; a bigger size field means a corrupt header. */
#define RT_MAX_UNCOMPRESSED (1ull << 31)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

size_t rt_fatbin_image_size(const void *data, char *err, size_t errlen) {
    const uint8_t *p = data;
    if (!p) {
        snprintf(err, errlen, "no fatbin data");
        return 0;
    }
    if (rd32(p) != RT_CONTAINER_MAGIC) {
        snprintf(err, errlen, "fatbin container has bad magic 0x%08x (expected 0x%08x)", rd32(p),
                 RT_CONTAINER_MAGIC);
        return 0;
    }
    uint16_t hsize = rd16(p + 6);
    uint64_t psize = rd64(p + 8);
    if (hsize < RT_CONTAINER_HEADER || psize > RT_MAX_UNCOMPRESSED) {
        snprintf(err, errlen, "fatbin container header is corrupt (header %u bytes, payload %llu)",
                 hsize, (unsigned long long)psize);
        return 0;
    }
    return (size_t)hsize + (size_t)psize;
}

int rt_fatbin_entries(const void *data, size_t len, rt_fatbin_entry *out, int max, char *err,
                      size_t errlen) {
    const uint8_t *base = data;
    size_t off = 0;
    int n = 0;
    if (len < RT_CONTAINER_HEADER) {
        snprintf(err, errlen, "fatbin is too short (%zu bytes)", len);
        return -1;
    }
    while (off < len) {
        /* Containers are 8-byte aligned; trailing zero padding ends the image. */
        if (len - off < RT_CONTAINER_HEADER) {
            for (size_t i = off; i < len; i++)
                if (base[i]) goto truncated;
            break;
        }
        const uint8_t *c = base + off;
        if (rd32(c) != RT_CONTAINER_MAGIC) {
            if (off > 0 && rd32(c) == 0) break; /* padding after the last container */
            snprintf(err, errlen, "fatbin container at offset %zu has bad magic 0x%08x", off, rd32(c));
            return -1;
        }
        uint16_t hsize = rd16(c + 6);
        uint64_t psize = rd64(c + 8);
        if (hsize < RT_CONTAINER_HEADER || hsize > len - off || psize > len - off - hsize) {
            snprintf(err, errlen,
                     "fatbin container at offset %zu claims %llu bytes, past the end of the image",
                     off, (unsigned long long)psize);
            return -1;
        }
        size_t e = off + hsize, end = e + (size_t)psize;
        while (e < end) {
            if (end - e < RT_ENTRY_MIN_HEADER) {
                snprintf(err, errlen, "fatbin entry at offset %zu is truncated", e);
                return -1;
            }
            const uint8_t *h = base + e;
            uint16_t kind = rd16(h);
            uint32_t ehsize = rd32(h + 4);
            uint64_t esize = rd64(h + 8);
            if (ehsize < RT_ENTRY_MIN_HEADER || ehsize > end - e || esize > end - e - ehsize) {
                snprintf(err, errlen,
                         "fatbin entry at offset %zu (header %u bytes, payload %llu) runs past the "
                         "end of its container",
                         e, ehsize, (unsigned long long)esize);
                return -1;
            }
            rt_fatbin_entry ent;
            memset(&ent, 0, sizeof ent);
            ent.kind = kind;
            ent.arch = rd32(h + RT_ENTRY_OFF_ARCH);
            ent.payload = h + ehsize;
            ent.payload_size = esize;
            if (ehsize >= RT_ENTRY_OFF_FLAGS + 8) ent.flags = rd64(h + RT_ENTRY_OFF_FLAGS);
            if (ent.flags & (RT_FLAG_ZSTD | RT_FLAG_LZ4)) {
                if (ehsize < RT_ENTRY_OFF_UNCOMPRESSED + 8) {
                    snprintf(err, errlen,
                             "fatbin entry at offset %zu is compressed but its header (%u bytes) "
                             "has no uncompressed size",
                             e, ehsize);
                    return -1;
                }
                uint32_t csize = rd32(h + RT_ENTRY_OFF_COMPRESSED);
                if (csize && csize <= esize) ent.payload_size = csize;
                ent.uncompressed_size = rd64(h + RT_ENTRY_OFF_UNCOMPRESSED);
                ent.compression = (ent.flags & RT_FLAG_ZSTD) ? RT_FATBIN_ZSTD : RT_FATBIN_LZ4;
            } else if (esize >= 4 && rd32(ent.payload) == 0xFD2FB528u) {
                /* A zstd frame without the flag: trust the frame. */
                ent.compression = RT_FATBIN_ZSTD;
            }
            if (n < max) out[n] = ent;
            n++;
            e += ehsize + (size_t)esize;
        }
        off = end;
        off = (off + 7) & ~(size_t)7;
    }
    return n;
truncated:
    snprintf(err, errlen, "fatbin ends with %zu stray bytes", len - off);
    return -1;
}

/* Decode one LZ4 block (the format lz4's documentation describes: sequences of a token,
 * literals, a 2-byte offset and a match). Returns the bytes written or -1 when corrupt. */
static long rt_lz4_decode(const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen) {
    size_t ip = 0, op = 0;
    while (ip < srclen) {
        uint8_t token = src[ip++];
        size_t lit = token >> 4;
        if (lit == 15) {
            uint8_t b;
            do {
                if (ip >= srclen) return -1;
                b = src[ip++];
                lit += b;
            } while (b == 255);
        }
        if (lit > srclen - ip || lit > dstlen - op) return -1;
        memcpy(dst + op, src + ip, lit);
        ip += lit;
        op += lit;
        if (ip == srclen) break; /* the last sequence has literals only */
        if (srclen - ip < 2) return -1;
        size_t offset = (size_t)src[ip] | (size_t)src[ip + 1] << 8;
        ip += 2;
        if (offset == 0 || offset > op) return -1;
        size_t mlen = token & 15;
        if (mlen == 15) {
            uint8_t b;
            do {
                if (ip >= srclen) return -1;
                b = src[ip++];
                mlen += b;
            } while (b == 255);
        }
        mlen += 4;
        if (mlen > dstlen - op) return -1;
        for (size_t i = 0; i < mlen; i++, op++) dst[op] = dst[op - offset]; /* may overlap */
    }
    return (long)op;
}

/* A zstd frame that should hold want bytes, decompressed into a buffer that grows only
 * as the data arrives (so a header claiming gigabytes costs nothing until they come), with
 * room for a NUL. NULL with a message when the frame is corrupt or its size is not want. */
static char *rt_zstd_decode(const uint8_t *src, size_t srclen, size_t want, char *err,
                            size_t errlen) {
    ZSTD_DStream *ds = ZSTD_createDStream();
    size_t cap = want < (1u << 16) ? want : (1u << 16);
    char *out = malloc(cap + 1);
    if (!ds || !out) {
        ZSTD_freeDStream(ds);
        free(out);
        snprintf(err, errlen, "out of memory reading a fatbin entry");
        return NULL;
    }
    ZSTD_initDStream(ds);
    ZSTD_inBuffer in = {src, srclen, 0};
    ZSTD_outBuffer ob = {out, cap, 0};
    const char *why = NULL;
    for (;;) {
        size_t r = ZSTD_decompressStream(ds, &ob, &in);
        if (ZSTD_isError(r)) { why = ZSTD_getErrorName(r); break; }
        if (r == 0) break;                              /* the frame is complete */
        if (ob.pos < ob.size) {                         /* wants input there is none of */
            if (in.pos == in.size) { why = "truncated"; break; }
            continue;
        }
        if (ob.size == want) { why = "more data than its size says"; break; }
        size_t ncap = cap * 2 < want ? cap * 2 : want;
        char *n = realloc(out, ncap + 1);
        if (!n) { why = "out of memory"; break; }
        out = n;
        cap = ncap;
        ob.dst = out;
        ob.size = cap;
    }
    ZSTD_freeDStream(ds);
    if (!why && ob.pos != want) why = "size mismatch";
    if (why) {
        snprintf(err, errlen, "corrupt zstd data in fatbin entry (%s)", why);
        free(out);
        return NULL;
    }
    return out;
}

char *rt_fatbin_entry_text(const rt_fatbin_entry *e, size_t *len, char *err, size_t errlen) {
    char *text;
    size_t n;
    if (e->compression == RT_FATBIN_RAW) {
        /* Stored as text padded with NULs to the entry's size. */
        n = strnlen((const char *)e->payload, (size_t)e->payload_size);
        text = malloc(n + 1);
        if (!text) goto oom;
        memcpy(text, e->payload, n);
    } else {
        uint64_t want = e->uncompressed_size;
        if (e->compression == RT_FATBIN_ZSTD && want == 0) {
            unsigned long long fs = ZSTD_getFrameContentSize(e->payload, (size_t)e->payload_size);
            if (fs != ZSTD_CONTENTSIZE_ERROR && fs != ZSTD_CONTENTSIZE_UNKNOWN) want = fs;
        }
        if (want == 0 || want > RT_MAX_UNCOMPRESSED) {
            snprintf(err, errlen, "compressed fatbin entry has an implausible size (%llu bytes)",
                     (unsigned long long)want);
            return NULL;
        }
        if (e->compression == RT_FATBIN_ZSTD) {
            text = rt_zstd_decode(e->payload, (size_t)e->payload_size, (size_t)want, err, errlen);
            if (!text) return NULL;
        } else {
            /* an LZ4 sequence expands at most 255-fold: a size beyond that is a lie */
            if (want > (uint64_t)e->payload_size * 255u + 64u) {
                snprintf(err, errlen, "compressed fatbin entry claims %llu bytes from %llu",
                         (unsigned long long)want, (unsigned long long)e->payload_size);
                return NULL;
            }
            text = malloc((size_t)want + 1);
            if (!text) goto oom;
            long r = rt_lz4_decode(e->payload, (size_t)e->payload_size, (uint8_t *)text, (size_t)want);
            if (r != (long)want) {
                snprintf(err, errlen, "corrupt LZ4 data in fatbin entry");
                free(text);
                return NULL;
            }
        }
        n = strnlen(text, (size_t)want);
    }
    text[n] = '\0';
    if (len) *len = n;
    return text;
oom:
    snprintf(err, errlen, "out of memory reading a fatbin entry");
    return NULL;
}

char *rt_fatbin_select_ptx(const void *data, size_t len, int device_sm, uint32_t *arch,
                           cudaError_t *code, char *err, size_t errlen) {
    enum { MAX_ENTRIES = 64 };
    rt_fatbin_entry ents[MAX_ENTRIES];
    int n = rt_fatbin_entries(data, len, ents, MAX_ENTRIES, err, errlen);
    if (n < 0) {
        *code = cudaErrorInvalidKernelImage;
        return NULL;
    }
    if (n > MAX_ENTRIES) n = MAX_ENTRIES;
    int best = -1, oldest = -1, sass = -1;
    for (int i = 0; i < n; i++) {
        if (ents[i].kind == RT_FATBIN_ELF && (sass < 0 || ents[i].arch > ents[sass].arch)) sass = i;
        if (ents[i].kind != RT_FATBIN_PTX) continue;
        if (oldest < 0 || ents[i].arch < ents[oldest].arch) oldest = i;
        if ((int)ents[i].arch <= device_sm && (best < 0 || ents[i].arch > ents[best].arch)) best = i;
    }
    if (best < 0) best = oldest; /* e.g. Kepler/Fermi presets: nvcc 13 targets sm_75 and up */
    if (best < 0) {
        *code = cudaErrorNoKernelImageForDevice;
        if (sass >= 0)
            snprintf(err, errlen,
                     "the program holds only machine code (SASS for sm_%u), no PTX; rebuild it with "
                     "`vcuda cc`, or with nvcc -gencode arch=compute_%u,code=compute_%u so that PTX "
                     "is embedded",
                     ents[sass].arch, ents[sass].arch, ents[sass].arch);
        else
            snprintf(err, errlen, "the fatbin holds no PTX");
        return NULL;
    }
    char *text = rt_fatbin_entry_text(&ents[best], NULL, err, errlen);
    if (!text) {
        *code = cudaErrorInvalidKernelImage;
        return NULL;
    }
    if (arch) *arch = ents[best].arch;
    *code = cudaSuccess;
    return text;
}
