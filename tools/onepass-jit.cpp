// onepass-jit: stage 2 offline. Lowers every kernel a binary built with
// `onepass++ -fsycl-sscp` carries for a target, without a device, and writes
// what the JIT produced: each kernel's lowered form as
// <dir>/<image>.<kernel>.<spv|ptx|hsaco|o> (the indices onepass-kernels
// lists), and its IR (ir/<symbol><suffix>.ll, and the IR before optimization,
// .unoptimized.ll). Prints a
// line per kernel with its compile time and a summary (median and worst), and
// exits non-zero if any kernel failed to compile.
#include "ElfSections.h"
#include "JitTargets.h"
#include "KernelImage.h"

#include "onepass/jit/jit_api.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace image = onepass::image;

constexpr const char *kToolName = "onepass-jit";

void printUsage(FILE *stream) {
  std::fprintf(stream,
               "USAGE: onepass-jit --target=<target> [options] <binary> [<library>...] -o <directory>\n"
               "\n"
               "Compiles every SYCL kernel of a program, shared library or object file built\n"
               "with `onepass++ -fsycl-sscp` as the JIT would for a device, without one, and\n"
               "writes each kernel's lowered form as <directory>/<image>.<kernel>.<extension>\n"
               "(onepass-kernels' indices) and its IR into <directory>/ir/, named after the\n"
               "kernel's symbol. Libraries (shared libraries built with onepass++) give\n"
               "the SYCL_EXTERNAL functions the binary's kernels call, as at run time.\n"
               "\n"
               "OPTIONS:\n"
               "  --target=<target>  spirv (a SPIR-V module, .spv), ptx (PTX text, .ptx),\n"
               "                     amdgcn (an AMD GPU code object, .hsaco) or x86 (this\n"
               "                     host's CPU, a shared object, .so)\n"
               "  --arch=<arch>      ptx: the GPU architecture (default sm_90); amdgcn: the\n"
               "                     gfx architecture (default gfx942)\n"
               "  --kernel=<text>    only kernels whose symbol or name contains <text>\n"
               "  --no-ir            write no IR (the times printed are then the JIT's alone)\n"
               "  -o <directory>     where to write (created if missing)\n"
               "  --help             print this help\n"
               "\n"
               "ptx needs NVIDIA's libdevice for kernels that call math functions: set\n"
               "ONEPASS_CUDA_PATH to a CUDA toolkit if it is not in a usual place; amdgcn\n"
               "needs AMD's ocml (ROCm device libraries, Debian's rocm-device-libs): set\n"
               "ONEPASS_ROCM_DEVICE_LIBS to the directory of ocml.bc if it is elsewhere.\n");
}

int fail(const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", kToolName, message.c_str());
  return 1;
}

int failUsage(const std::string &message) {
  fail(message);
  std::fprintf(stderr, "run '%s --help' for usage\n", kToolName);
  return 2;
}

struct Options {
  std::string binary;
  std::vector<std::string> libraries;
  std::string output;
  std::string target;
  std::string arch;
  std::string kernelFilter;
  bool writeIr = true;
};

// Returns -1 to continue, or the exit code to end with.
int parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char *prefix, std::string &into) {
      if (arg.rfind(prefix, 0) != 0) return false;
      into = arg.substr(std::strlen(prefix));
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      printUsage(stdout);
      return 0;
    }
    if (arg == "--no-ir") {
      options.writeIr = false;
      continue;
    }
    if (arg == "-o") {
      if (i + 1 >= argc) return failUsage("-o needs a directory");
      options.output = argv[++i];
      continue;
    }
    if (value("--target=", options.target) || value("--arch=", options.arch) ||
        value("--kernel=", options.kernelFilter) || value("-o", options.output))
      continue;
    if (!arg.empty() && arg[0] == '-') return failUsage("unknown option '" + arg + "'");
    if (options.binary.empty()) options.binary = arg;
    else options.libraries.push_back(arg);
  }
  if (options.target.empty()) return failUsage("no --target given (spirv, ptx, amdgcn or x86)");
  if (options.binary.empty()) return failUsage("no binary given");
  if (options.output.empty()) return failUsage("no output directory given (-o)");
  return -1;
}

bool makeDirectories(const std::string &path, std::string &error) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/') continue;
    const std::string prefix = path.substr(0, at);
    if (mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) {
      error = "cannot create '" + prefix + "': " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  if (int code = parseOptions(argc, argv, options); code >= 0) return code;

  onepass::tools::JitTargetChoice choice;
  if (std::string problem = onepass::tools::parseJitTarget(options.target, options.arch, /*allowHost=*/true, choice);
      !problem.empty())
    return failUsage(problem);
  const onepass_jit_target target{choice.kind, choice.arch, 0, choice.library.c_str(), choice.libraryMissing.c_str()};

  // The binary's images (whose kernels are compiled) and the libraries'
  // (only their exported functions are used). The files stay in memory.
  std::vector<std::vector<uint8_t>> files;
  std::vector<image::ImageView> images, libraryImages;
  std::string error;
  for (size_t which = 0; which <= options.libraries.size(); ++which) {
    const std::string &path = which == 0 ? options.binary : options.libraries[which - 1];
    files.emplace_back();
    if (!onepass::tools::readFileBytes(path, files.back(), error)) return fail(path + ": " + error);
    onepass::tools::SectionContents section;
    if (!onepass::tools::findElfSection(files.back().data(), files.back().size(), image::kSectionName, section, error))
      return fail(path + ": " + error);
    std::vector<image::ImageView> found;
    if (section.found && !image::splitImageSection(section.data, section.size, found, error))
      return fail(path + ": " + error);
    if (found.empty()) return fail(path + ": no SYCL kernels (was it built with onepass++ -fsycl-sscp?)");
    (which == 0 ? images : libraryImages).insert((which == 0 ? images : libraryImages).end(), found.begin(),
                                                  found.end());
  }

  // Each kernel's lowered form is <dir>/<image>.<kernel><extension>; the
  // JIT's own dumps (its IR before and after the optimizer, and the binary
  // again) go to <dir>/ir/, named after the kernel's symbol.
  if (options.writeIr) {
    const std::string irDirectory = options.output + "/ir";
    if (!makeDirectories(irDirectory, error)) return fail(error);
    setenv("ONEPASS_DUMP_DIR", irDirectory.c_str(), 1);
  } else {
    if (!makeDirectories(options.output, error)) return fail(error);
    unsetenv("ONEPASS_DUMP_DIR");
  }
  const char *extension = options.target == "spirv" ? ".spv"
                          : options.target == "ptx" ? ".ptx"
                          : options.target == "amdgcn" ? ".hsaco"
                                                       : ".so";

  std::vector<onepass_jit_library> libraries;
  for (const std::vector<image::ImageView> *set : {&images, &libraryImages})
    for (const image::ImageView &img : *set)
      if (img.exportsFunctions()) libraries.push_back({img.data(), img.totalSize()});

  std::vector<double> milliseconds;
  unsigned failures = 0;
  for (size_t i = 0; i < images.size(); ++i)
    for (size_t k = 0; k < images[i].kernels().size(); ++k) {
      const image::KernelView &kernel = images[i].kernels()[k];
      if (!options.kernelFilter.empty() && kernel.symbol.find(options.kernelFilter) == std::string::npos &&
          kernel.displayName.find(options.kernelFilter) == std::string::npos)
        continue;
      onepass_jit_request request{};
      request.image = images[i].data();
      request.image_size = images[i].totalSize();
      const std::string symbol(kernel.symbol);
      const std::string name(kernel.displayName);
      request.kernel_symbol = symbol.c_str();
      request.libraries = libraries.data();
      request.library_count = static_cast<uint32_t>(libraries.size());
      onepass_jit_buffer binary{};
      char *message = nullptr;
      const auto start = std::chrono::steady_clock::now();
      const int status = onepass_jit_compile(&request, &target, &binary, &message);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (status != 0) {
        ++failures;
        std::printf("FAILED %zu:%zu %s\n  %s\n", i, k, name.c_str(), message ? message : "(no message)");
        onepass_jit_free(message);
        continue;
      }
      milliseconds.push_back(ms);
      const std::string path = options.output + "/" + std::to_string(i) + "." + std::to_string(k) + extension;
      uint64_t length = binary.size;
      if (target.kind == ONEPASS_JIT_TARGET_PTX && length > 0) --length;  // (the NUL the driver wants)
      FILE *file = std::fopen(path.c_str(), "wb");
      if (!file || std::fwrite(binary.data, 1, length, file) != length || std::fclose(file) != 0)
        return fail("cannot write '" + path + "'");
      std::printf("ok %zu:%zu %.1f ms %llu bytes %s\n", i, k, ms, static_cast<unsigned long long>(binary.size),
                  name.c_str());
      onepass_jit_free(binary.data);
    }
  if (milliseconds.empty() && failures == 0) return fail("no kernel matches --kernel=" + options.kernelFilter);
  std::vector<double> sorted = milliseconds;
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty())
    std::printf("%zu kernels compiled for %s (median %.1f ms, worst %.1f ms; the first pays LLVM's one-time set-up)",
                sorted.size(), options.target.c_str(), sorted[sorted.size() / 2], sorted.back());
  else
    std::printf("no kernel compiled");
  std::printf(", %u failed; output in %s\n", failures, options.output.c_str());
  return failures ? 1 : 0;
}
