# vcuda-cuda-rules.cmake — included by CMake after its nvcc rules (through
# CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA, set by vcuda-toolchain.cmake): the CUDA runtime
# that CMAKE_CUDA_RUNTIME_LIBRARY links, static or shared, is libvcuda. cudadevrt stays:
# nvcc's device link (separable compilation, device-side launches) needs its device code;
# libvcuda serves its host side.
set(CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_STATIC "cudadevrt;${VCUDA_LIBRARY}")
set(CMAKE_CUDA_RUNTIME_LIBRARY_LINK_OPTIONS_SHARED "cudadevrt;${VCUDA_LIBRARY}")
