/* driver/fatbin_write.c — a fatbin container holding PTX text (fatbin_write.h).
 *
 * The layout is the one runtime/fatbin.c reads: a 16-byte container header (magic
 * 0xBA55ED50, version 1, header size, payload size) and one 64-byte entry header (kind 1 =
 * PTX, header size, payload size, architecture at 28), then the text with its NUL,
 * padded to 8 bytes.
 */
#include "fatbin_write.h"

#include <stdlib.h>
#include <string.h>

enum { DRV_CONTAINER_HEADER = 16, DRV_ENTRY_HEADER = 64 };

static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void wr32(uint8_t *p, uint32_t v) { wr16(p, (uint16_t)v), wr16(p + 2, (uint16_t)(v >> 16)); }
static void wr64(uint8_t *p, uint64_t v) { wr32(p, (uint32_t)v), wr32(p + 4, (uint32_t)(v >> 32)); }

uint8_t *drv_fatbin_from_ptx(const char *ptx, size_t len, uint32_t arch, size_t *size) {
    size_t payload = (len + 1 + 7) & ~(size_t)7;
    size_t total = DRV_CONTAINER_HEADER + DRV_ENTRY_HEADER + payload;
    uint8_t *b = calloc(1, total);
    if (!b) return NULL;
    wr32(b, 0xBA55ED50u);
    wr16(b + 4, 1);
    wr16(b + 6, DRV_CONTAINER_HEADER);
    wr64(b + 8, DRV_ENTRY_HEADER + payload);
    uint8_t *e = b + DRV_CONTAINER_HEADER;
    wr16(e, 1);              /* PTX */
    wr16(e + 2, 0x0101);     /* entry version */
    wr32(e + 4, DRV_ENTRY_HEADER);
    wr64(e + 8, payload);
    wr32(e + 28, arch);
    memcpy(e + DRV_ENTRY_HEADER, ptx, len);
    *size = total;
    return b;
}

uint32_t drv_fatbin_ptx_target(const char *ptx, size_t len) {
    static const char key[] = ".target";
    for (size_t i = 0; i + sizeof key < len; i++) {
        if (memcmp(ptx + i, key, sizeof key - 1) != 0) continue;
        size_t j = i + sizeof key - 1;
        while (j < len && (ptx[j] == ' ' || ptx[j] == '\t')) j++;
        if (j + 3 > len || memcmp(ptx + j, "sm_", 3) != 0) return 0;
        uint32_t v = 0;
        for (j += 3; j < len && ptx[j] >= '0' && ptx[j] <= '9'; j++) v = v * 10 + (uint32_t)(ptx[j] - '0');
        return v;
    }
    return 0;
}
