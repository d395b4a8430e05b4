/* runtime/symbols.c — __device__, __constant__ and __managed__ variables through the
 * symbol calls. A symbol is the host variable nvcc registered for the device variable
 * (for __managed__ variables, the variable itself); its device storage is the module
 * variable exec_program_load made, so a symbol copy is a copy into that storage.
 *
 * Checks follow an H100 under CUDA 13 (tests/cuda/probes/expected/symbols.out): an
 * unregistered symbol is cudaErrorInvalidSymbol, a copy direction that does not fit the
 * call is cudaErrorInvalidMemcpyDirection, offset + count past the variable is
 * cudaErrorInvalidValue, and a count of 0 succeeds whatever the offset.
 */
#include "rt.h"

/* The variable's storage. Called with c->lock held. */
static cudaError_t rt_symbol(rt_context *c, const void *symbol, rt_var **var, void **addr) {
    rt_var *v = rt_var_lookup(c, symbol);
    if (!v) return cudaErrorInvalidSymbol;
    cudaError_t e = rt_var_address(c, v, addr);
    if (e == cudaSuccess && var) *var = v;
    return e;
}

static cudaError_t rt_symbol_copy(const void *symbol, void *host, size_t count, size_t offset,
                                  enum cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream,
                                  bool async) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    rt_var *v = NULL;
    void *addr = NULL;
    e = rt_symbol(c, symbol, &v, &addr);
    pthread_mutex_unlock(&c->lock);
    if (e) return rt_record(e);
    /* The symbol side is device memory; the other side is what the kind says. */
    bool kind_ok = to_symbol ? (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice ||
                                kind == cudaMemcpyDefault)
                             : (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ||
                                kind == cudaMemcpyDefault);
    if (!kind_ok) return rt_record(cudaErrorInvalidMemcpyDirection);
    if (count == 0) return cudaSuccess;
    if (offset > v->size || count > v->size - offset) return rt_record(cudaErrorInvalidValue);
    char *dev = (char *)addr + offset;
    if (to_symbol) {
        enum cudaMemcpyKind k = kind == cudaMemcpyDefault ? cudaMemcpyDefault
                                : kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDeviceToDevice
                                                                   : cudaMemcpyHostToDevice;
        return rt_record(rt_memcpy(c, dev, host, count, k, stream, async));
    }
    enum cudaMemcpyKind k = kind == cudaMemcpyDefault ? cudaMemcpyDefault
                            : kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDeviceToDevice
                                                               : cudaMemcpyDeviceToHost;
    return rt_record(rt_memcpy(c, host, dev, count, k, stream, async));
}

RT_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                      size_t offset, enum cudaMemcpyKind kind) {
    return rt_symbol_copy(symbol, (void *)src, count, offset, kind, true, 0, false);
}

RT_API cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind) {
    return rt_symbol_copy(symbol, (void *)src, count, offset, kind, true, cudaStreamPerThread,
                          false);
}

RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                        size_t offset, enum cudaMemcpyKind kind) {
    return rt_symbol_copy(symbol, dst, count, offset, kind, false, 0, false);
}

RT_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind) {
    return rt_symbol_copy(symbol, dst, count, offset, kind, false, cudaStreamPerThread, false);
}

RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind,
                                           cudaStream_t stream) {
    return rt_symbol_copy(symbol, (void *)src, count, offset, kind, true, stream, true);
}

RT_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream) {
    return rt_symbol_copy(symbol, (void *)src, count, offset, kind, true, rt_per_thread(stream), true);
}

RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind,
                                             cudaStream_t stream) {
    return rt_symbol_copy(symbol, dst, count, offset, kind, false, stream, true);
}

RT_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                  size_t offset, enum cudaMemcpyKind kind,
                                                  cudaStream_t stream) {
    return rt_symbol_copy(symbol, dst, count, offset, kind, false, rt_per_thread(stream), true);
}

RT_API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    void *addr = NULL;
    e = rt_symbol(c, symbol, NULL, &addr);
    pthread_mutex_unlock(&c->lock);
    if (e) return rt_record(e);
    if (!devPtr) return rt_record(cudaErrorInvalidValue); /* CUDA itself crashes here */
    *devPtr = addr;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    pthread_mutex_lock(&c->lock);
    rt_var *v = NULL;
    void *addr = NULL;
    e = rt_symbol(c, symbol, &v, &addr);
    pthread_mutex_unlock(&c->lock);
    if (e) return rt_record(e);
    if (!size) return rt_record(cudaErrorInvalidValue);
    *size = v->size;
    return cudaSuccess;
}
