# Install packages (issue 19): `cpack` in the build directory makes
#   onepass-<version>-Linux.tar.gz   the install tree, relocatable (unpack anywhere)
#   onepass_<version>_amd64.deb      the same under /opt/onepass, with its dependencies declared
# The toolchain needs clang-22 to compile; programs need libstdc++, zlib and
# zstd; the CUDA backend needs an NVIDIA driver (libcuda.so.1), optional.
set(CPACK_PACKAGE_NAME onepass)
set(CPACK_PACKAGE_VENDOR "OnePass")
set(CPACK_PACKAGE_CONTACT "OnePass developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OnePass: a single-pass SYCL 2020 compiler (onepass++) and JIT runtime")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_STRIP_FILES ON)
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
# The .deb installs the relocatable tree in a prefix of its own.
set(CPACK_DEBIAN_PACKAGE_NAME onepass)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# (Per generator: the .tar.gz holds the tree at its top, cmake/CPackOptions.cmake.)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/CPackOptions.cmake)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-22, libstdc++6, libzstd1, zlib1g")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libcuda1 | libnvidia-compute")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)  # quick to make; the JIT library dominates the size either way
include(CPack)
