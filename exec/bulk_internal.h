/* exec/bulk_internal.h — what the bulk copies (exec/bulk.c) share with the tensor copies
 * (exec/bulk_tensor.c): the reduction operations of cp.reduce.async.bulk{.tensor}.
 */
#ifndef VCUDA_EXEC_BULK_INTERNAL_H
#define VCUDA_EXEC_BULK_INTERNAL_H

#include "core.h"

enum bulk_red { BR_NONE, BR_ADD, BR_MIN, BR_MAX, BR_INC, BR_DEC, BR_AND, BR_OR, BR_XOR };

/* The reduction an instruction names (.add, .min, ...), or BR_NONE. */
unsigned exec_bulk_red_op(const ptx_insn *pi);
/* *d = *d op s for one element of type t (u32/s32/b32, u64/s64/b64, f32 and f64 add). */
void exec_bulk_reduce_elem(uint8_t *d, const uint8_t *s, unsigned op, ptx_type t);

#endif
