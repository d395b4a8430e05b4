# cmake/install.cmake — what `make install` (cmake --install) puts under the prefix:
#   bin/vcuda                              the command (finds its libraries in ../lib)
#   lib/libvcuda.so                        the runtime; every target in VCUDA_INSTALL_LIBRARIES
#   lib/cmake/vcuda/vcudaConfig.cmake      find_package(vcuda): vcuda::cudart, VCUDA_EXECUTABLE
#   lib/cmake/vcuda/vcudaConfigVersion.cmake
#   lib/cmake/vcuda/vcuda-toolchain.cmake  CMake CUDA projects, unchanged, built for vcuda
#   lib/pkgconfig/vcuda.pc                 pkg-config --cflags --libs vcuda
# Every installed file finds the others relative to itself, so a prefix can be moved.
# A shared library meant for users (the driver library, ...) is installed by adding its
# target to VCUDA_INSTALL_LIBRARIES before this file is included.
include(CMakePackageConfigHelpers)

# One version, the command's (tools/tool.h).
file(STRINGS ${CMAKE_SOURCE_DIR}/tools/tool.h _vcuda_version_line REGEX "define VCUDA_VERSION_STRING")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" VCUDA_VERSION "${_vcuda_version_line}")

list(APPEND VCUDA_INSTALL_LIBRARIES vcuda)
list(REMOVE_DUPLICATES VCUDA_INSTALL_LIBRARIES)
install(TARGETS ${VCUDA_INSTALL_LIBRARIES} LIBRARY DESTINATION lib)
if(TARGET vcuda_cmd)
  # the installed command finds libvcuda beside it, wherever the prefix is
  set_target_properties(vcuda_cmd PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
  install(TARGETS vcuda_cmd RUNTIME DESTINATION bin)
endif()

set(_vcuda_gen ${CMAKE_BINARY_DIR}/install-files)
configure_file(${CMAKE_SOURCE_DIR}/cmake/vcudaConfig.cmake.in ${_vcuda_gen}/vcudaConfig.cmake @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/vcuda-toolchain.cmake.in ${_vcuda_gen}/vcuda-toolchain.cmake @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/vcuda.pc.in ${_vcuda_gen}/vcuda.pc @ONLY)
write_basic_package_version_file(${_vcuda_gen}/vcudaConfigVersion.cmake
  VERSION ${VCUDA_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${_vcuda_gen}/vcudaConfig.cmake ${_vcuda_gen}/vcudaConfigVersion.cmake
              ${_vcuda_gen}/vcuda-toolchain.cmake
              ${CMAKE_SOURCE_DIR}/cmake/vcuda-cuda-rules.cmake
              ${CMAKE_SOURCE_DIR}/cmake/vcuda-project.cmake
        DESTINATION lib/cmake/vcuda)
install(FILES ${_vcuda_gen}/vcuda.pc DESTINATION lib/pkgconfig)
