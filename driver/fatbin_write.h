/* driver/fatbin_write.h — writing a fatbin container that holds PTX text, the form in
 * which the driver keeps PTX it was handed and vcuda's libnvrtc hands back a "cubin"
 * (standalone: no other vcuda header, since libnvrtc is built from it too). */
#ifndef VCUDA_DRIVER_FATBIN_WRITE_H
#define VCUDA_DRIVER_FATBIN_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* A container (runtime/fatbin.c reads the layout) with one uncompressed PTX entry of
 * the text for target sm_<arch>; malloc'd, its size in *size. NULL when out of memory. */
uint8_t *drv_fatbin_from_ptx(const char *ptx, size_t len, uint32_t arch, size_t *size);
/* The PTX target of a PTX text (.target sm_XX as XX, 0 when absent). */
uint32_t drv_fatbin_ptx_target(const char *ptx, size_t len);

#endif
