# lit configuration of the OnePass test suite. Build paths come from
# lit.site.cfg.py (configured by CMake); run lit on the build directory.
import os
import shutil
import re
import sys

import lit.formats

if not hasattr(config, "onepass_bin_dir"):
    lit_config.fatal("run lit on the configured build directory (tests/lit in the "
                     "build tree), not on the source directory")

config.name = "OnePass"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".cpp", ".test", ".ll"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
if not getattr(config, "test_exec_root", None):
    config.test_exec_root = os.path.join(config.build_dir, "tests", "lit")


def llvm_tool(name):
    return os.path.join(config.llvm_bindir, name)


clangxx = getattr(config, "clangxx", "") or llvm_tool("clang++")
onepass = os.path.join(config.onepass_bin_dir, "onepass++")
# The driver finds everything relative to its real location; tests that
# check paths compare against this.
onepass_prefix = os.path.dirname(os.path.dirname(os.path.realpath(onepass)))

# A sanitizer build (ONEPASS_SANITIZE): its onepass++ links programs with the
# sanitizers' runtime (the OnePass runtime is instrumented); the feature lets
# a test that cannot run so say `UNSUPPORTED: sanitizer`, and the sanitizers'
# options reach the programs.
if getattr(config, "sanitize", ""):
    config.available_features.add("sanitizer")
    for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"]:
        if name in os.environ:
            config.environment[name] = os.environ[name]

# SPIRV-Tools (spirv-val, spirv-dis): the SPIR-V tests need them.
if shutil.which("spirv-val") and shutil.which("spirv-dis"):
    config.available_features.add("spirv-tools")

# AMD's ocml (ROCm device libraries), which AMDGCN kernels with math link.
rocm_dirs = [os.environ.get("ONEPASS_ROCM_DEVICE_LIBS", ""), "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
             "/opt/rocm/amdgcn/bitcode", "/opt/rocm/lib/amdgcn/bitcode"]
if any(d and os.path.isfile(os.path.join(d, "ocml.bc")) for d in rocm_dirs):
    config.available_features.add("rocm-device-libs")
    if os.environ.get("ONEPASS_ROCM_DEVICE_LIBS"):
        config.environment["ONEPASS_ROCM_DEVICE_LIBS"] = os.environ["ONEPASS_ROCM_DEVICE_LIBS"]

# The fake HSA runtime (built with the HSA backend).
if getattr(config, "fake_hsa_dir", ""):
    config.available_features.add("fake-hsa")

# lit applies substitutions in order, as regular expressions: %onepass-kernels
# must precede %onepass, which is a prefix of it.
for key, value in [
    ("%onepass-kernels", os.path.join(config.onepass_bin_dir, "onepass-kernels")),
    ("%jit-opt", os.path.join(config.build_dir, "tests", "bin", "jit-opt")),
    ("%{onepass_prefix}", onepass_prefix),
    ("%{fake_cuda_dir}", getattr(config, "fake_cuda_dir", "")),
    ("%{fake_hsa_dir}", getattr(config, "fake_hsa_dir", "")),
    ("%onepass", onepass),
    ("%clangxx", clangxx),
    ("%python", sys.executable),
]:
    config.substitutions.append((re.escape(key), value))
# LLVM's tools by full path, as whole words only (so "does-not-exist" stays).
for tool in ["FileCheck", "not", "llvm-as", "llvm-dis", "llvm-objcopy"]:
    config.substitutions.append((r"(?<![\w.\-/%%])%s(?![\w.\-/])" % re.escape(tool),
                                 llvm_tool(tool)))

# Tools are also found on PATH, ours and LLVM's before the system's.
config.environment["PATH"] = os.pathsep.join(
    [config.onepass_bin_dir, config.llvm_bindir, config.environment.get("PATH", "")])
# The driver's environment must be the test's, not the developer's.
config.environment.pop("ONEPASS_CLANGXX", None)
