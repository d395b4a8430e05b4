/* devLibFns — the device library of the devLibMain test: only __device__ functions and a
 * __device__ variable, nothing the host calls, so the host linker has no reason of its
 * own to take this object out of the static library it is put in; only the device link
 * needs it.
 */
__device__ int devLibBias = 5;

__device__ int devLibTriple(int x) { return 3 * x + devLibBias; }

__device__ int devLibSquare(int x) { return x * x - devLibBias; }
