# Spack package for OnePass (issue 19). Put this directory in a Spack
# repository (`spack repo create`, then copy packages/onepass/), set `git`
# below to the repository you build from, then:
#   spack install onepass            # the CPU device; NVIDIA GPUs need only the driver at run time
#   spack load onepass && onepass++ -fsycl-sscp app.cpp
# OnePass builds against LLVM/Clang 22 with the NVPTX and X86 targets; its
# CUDA backend loads libcuda.so.1 at run time, so no CUDA toolkit is needed to
# build it (only to use -fsycl-interop=cuda, which needs cuda.h).
# scripts/packaging/check.sh checks that this file parses and says what the
# build needs.

from spack.package import *


class Onepass(CMakePackage):
    """OnePass: a SYCL 2020 implementation built around a single-pass clang
    compiler and a JIT runtime (CPU device, NVIDIA GPUs through the CUDA
    driver)."""

    # OnePass has no public home yet: set both to where your site gets it.
    homepage = "https://onepass.example.invalid"
    git = "https://onepass.example.invalid/onepass.git"

    maintainers("onepass-team")

    license("Apache-2.0")

    version("main", branch="main")

    variant("tests", default=False, description="Build the test suite (Catch2)")
    variant("benchmarks", default=False, description="Build the benchmarks")

    depends_on("cxx", type="build")
    depends_on("c", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("ninja", type="build")
    # onepass++ runs clang++ 22 and loads the plugin into it: a run dependency.
    depends_on("llvm@22 +clang targets=x86,nvptx", type=("build", "link", "run"))
    depends_on("zstd")
    depends_on("zlib-api")
    depends_on("catch2@2", type="build", when="+tests")

    generator("ninja")

    def cmake_args(self):
        llvm = self.spec["llvm"]
        return [
            # The build looks for Debian's versioned names by default.
            self.define("LLVM_CONFIG", join_path(llvm.prefix.bin, "llvm-config")),
            self.define("ONEPASS_CLANGXX", join_path(llvm.prefix.bin, "clang++")),
            self.define_from_variant("ONEPASS_BUILD_TESTS", "tests"),
            self.define_from_variant("ONEPASS_BUILD_BENCHMARKS", "benchmarks"),
        ]

    def setup_run_environment(self, env):
        # OnePass's JIT cache defaults to ~/.cache/onepass; sites may point
        # ONEPASS_CACHE_READONLY_DIRS at a shared, pre-warmed cache.
        env.set("ONEPASS_ROOT", self.prefix)
