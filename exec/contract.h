/* exec/contract.h — which float add/sub instructions of a function the decoder turns into
 * fma with an earlier mul, as ptxas contracts them (exec/contract.c says the rule). */
#ifndef VCUDA_EXEC_CONTRACT_H
#define VCUDA_EXEC_CONTRACT_H

#include "internal.h"

/* how[i] bits for a fused add/sub i */
#define EXEC_CONTRACT_NEG_PRODUCT 1u /* the product enters negated: fma(-a, b, c) */
#define EXEC_CONTRACT_NEG_ADDEND  2u /* the addend enters negated */
#define EXEC_CONTRACT_ADDEND_1    4u /* the addend is operand 1 of the add (else 2) */
#define EXEC_CONTRACT_ADDEND_2    8u /* the addend is operand 2 */

typedef struct exec_contract {
    int32_t *mul_of;   /* per instruction: the mul fused into this add/sub, or -1 */
    uint8_t *how;      /* per instruction: EXEC_CONTRACT_* bits */
    uint32_t count;    /* how many adds are fused */
} exec_contract;

/* Plan the contractions of function pf. Returns false (and holds nothing) when none. */
bool exec_contract_plan(const ptx_func *pf, exec_contract *c);
void exec_contract_free(exec_contract *c);

/* Decode add/sub j as the fma c planned for it into *out (as receives the fma
 * instruction decoded; the negations it needs are emitted first, into scratch slots).
 * Returns 1, or -1 with the error recorded. */
int exec_contract_decode(exec_decoder *d, const exec_contract *c, uint32_t j, ptx_insn *as,
                         exec_insn *out);

#endif
