-- Lmod modulefile template for OnePass (issue 19). Copy it to
-- <modulepath>/onepass/<version>.lua and set `root` to the install prefix
-- (cmake --install, the .tar.gz unpacked, or the .deb's /opt/onepass).
-- Users then `module load onepass` and build with `onepass++ -fsycl-sscp`
-- or CMake (find_package(OnePass) finds the package through CMAKE_PREFIX_PATH).
-- scripts/packaging/check.sh checks that it parses.

local root = "/opt/onepass"

whatis("Name: OnePass")
whatis("Description: SYCL 2020 compiler (single-pass clang plugin) and JIT runtime")
help([[
OnePass: compile SYCL 2020 programs with `onepass++ -fsycl-sscp app.cpp`; they
run on the CPU and on NVIDIA GPUs (where a CUDA driver is installed).
`onepass-info` lists the devices OnePass sees and why a backend is absent;
`onepass-cache` manages the JIT cache (`onepass-cache warm ./app` compiles
every kernel ahead of time, for job scripts). Needs clang++-22 on PATH or
ONEPASS_CLANGXX.
]])

prepend_path("PATH", pathJoin(root, "bin"))
prepend_path("CMAKE_PREFIX_PATH", root)
prepend_path("MANPATH", pathJoin(root, "share/man"))
setenv("ONEPASS_ROOT", root)

-- A site cache of pre-built kernels shared by every user (read-only), if the
-- site keeps one: uncomment and point it at the directory.
-- setenv("ONEPASS_CACHE_READONLY_DIRS", "/apps/onepass/kernel-cache")
