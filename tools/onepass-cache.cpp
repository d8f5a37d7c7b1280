// onepass-cache (issue 19): looks after the persistent kernel cache, the one
// the runtime uses (ONEPASS_CACHE_DIR, else $XDG_CACHE_HOME/onepass, else
// ~/.cache/onepass; --dir picks another).
//
//   onepass-cache [--dir <directory>] ls       the entries, least recently used first
//   onepass-cache [--dir <directory>] stats    how many, how big, the cap
//   onepass-cache [--dir <directory>] prune [--max-size <size>]
//                                              least recently used entries out until the
//                                              cache fits (default: ONEPASS_CACHE_MAX_SIZE)
//   onepass-cache [--dir <directory>] verify   reads every entry, removes those that do not
//                                              check out (the runtime would rebuild them)
//   onepass-cache [--dir <directory>] clear    removes every entry
//   onepass-cache warm <binary> [--device <selector>]   (ONEPASS_DEVICE_SELECTOR's grammar)
//                                              JIT-compiles every kernel of a binary built
//                                              with onepass++ for every device (or those a
//                                              selector term picks) into the runtime's cache
//   onepass-cache warm <binary> --target ptx|spirv|amdgcn [--arch sm_90|gfx942]
//                                              the same for a GPU target without a device of
//                                              it (a login node warming for GPU nodes): the
//                                              JIT's output goes in; a device of the target
//                                              finalizes it at its first launch instead of
//                                              running the JIT
//
// Safe while programs use the cache: entries are whole files, replaced by
// rename; a program that opened one keeps it.
#include "ElfSections.h"
#include "Environment.h"
#include "JitTargets.h"
#include "KernelCache.h"
#include "KernelImage.h"
#include "onepass/jit/jit_api.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

using onepass::rt::KernelCache;

namespace {

std::string humanSize(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit ? "%.1f %s" : "%.0f %s", value, units[unit]);
  return text;
}

// A key's parts worth showing: the device, the kernel's symbol and what was
// compiled in (KernelProvider.cpp's cacheKey: toolchain|target|device...|
// image <id>|symbol|extras).
std::string describeKey(const std::string &key) {
  if (key.empty()) return "(not an entry)";
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t bar = key.find('|', start);
    parts.push_back(key.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  size_t image = 0;
  while (image < parts.size() && parts[image].compare(0, 6, "image ") != 0) ++image;
  if (image + 1 >= parts.size()) return key;
  std::string text;
  for (size_t i = 2; i < image; ++i) text += (text.empty() ? "" : " ") + parts[i];
  text += "  " + parts[image + 1];
  for (size_t i = image + 2; i < parts.size(); ++i) text += "  [" + parts[i] + "]";
  return text;
}

extern "C" void onepassRegisterImage(const void *, uint64_t, const void *const *,
                                     uint64_t) __asm__("__onepass_register_image");

// warm --target: the JIT target (tools/JitTargets.h) and, for PTX, the CUDA
// toolkit's ptxas and fatbinary if it has them.
struct WarmTarget : onepass::tools::JitTargetChoice {
  std::string ptxas, fatbinary;
};

bool executable(const std::string &path) { return access(path.c_str(), X_OK) == 0; }

// Runs a command line (its words single-quoted by the caller); "" or what it
// printed when it failed.
std::string runCommand(const std::string &name, const std::string &command, const std::string &logFile) {
  const int status = std::system((command + " > '" + logFile + "' 2>&1").c_str());
  if (status == 0) return "";
  std::ifstream in(logFile);
  std::string printed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!printed.empty() && std::isspace(static_cast<unsigned char>(printed.back()))) printed.pop_back();
  return name + " failed" + (printed.empty() ? std::string() : ": " + printed) + " (command: " + command + ")";
}

// The transform of --target ptx where the CUDA toolkit has ptxas and
// fatbinary: the JIT's PTX becomes a fat binary holding the cubin ptxas makes
// for the architecture and the PTX itself, so that the GPU's first launch
// only links a cubin (the driver compiles the PTX if it cannot take that
// cubin, e.g. a driver older than the toolkit).
std::string ptxToFatBinary(std::vector<unsigned char> &output, void *context) {
  const WarmTarget &target = *static_cast<const WarmTarget *>(context);
  char pattern[] = "/tmp/onepass-warm.XXXXXX";
  const char *made = mkdtemp(pattern);
  if (!made) return std::string("cannot make a temporary directory: ") + std::strerror(errno);
  const std::string dir = made, sm = std::to_string(target.arch);
  std::string error;
  {
    // (The JIT's PTX ends with the NUL the driver wants; ptxas reads a file.)
    size_t size = output.size();
    while (size > 0 && output[size - 1] == 0) --size;
    std::ofstream ptx(dir + "/kernel.ptx", std::ios::binary);
    ptx.write(reinterpret_cast<const char *>(output.data()), static_cast<std::streamsize>(size));
    if (!ptx) error = "cannot write " + dir + "/kernel.ptx";
  }
  if (error.empty())
    error = runCommand("ptxas", "'" + target.ptxas + "' -arch=sm_" + sm + " -o '" + dir + "/kernel.cubin' '" + dir + "/kernel.ptx'",
                       dir + "/log");
  if (error.empty())
    error = runCommand("fatbinary", "'" + target.fatbinary + "' -64 --create='" + dir + "/kernel.fatbin' --image3=kind=elf,sm=" + sm +
                           ",file='" + dir + "/kernel.cubin' --image3=kind=ptx,sm=" + sm + ",file='" + dir + "/kernel.ptx'",
                       dir + "/log");
  if (error.empty()) {
    std::ifstream in(dir + "/kernel.fatbin", std::ios::binary);
    std::vector<unsigned char> fat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (fat.size() < 4) error = "fatbinary wrote no fat binary";
    else output.swap(fat);
  }
  for (const char *name : {"kernel.ptx", "kernel.cubin", "kernel.fatbin", "log"}) std::remove((dir + "/" + name).c_str());
  rmdir(dir.c_str());
  return error;
}
std::string parseTarget(const std::string &target, const std::string &arch, WarmTarget &out) {
  if (std::string problem = onepass::tools::parseJitTarget(target, arch, /*allowHost=*/false, out); !problem.empty())
    return problem;
  // (What the Level Zero and OpenCL backends ask for, whose cache entries these are.)
  if (out.kind == ONEPASS_JIT_TARGET_SPIRV) out.arch = ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS;
  if (out.kind != ONEPASS_JIT_TARGET_PTX) return "";
  // The toolkit libdevice came from (ONEPASS_CUDA_PATH, CUDA_PATH...), else
  // the one of the nvcc on PATH.
  for (const std::string &root : {out.toolkitRoot, std::string("/usr/local/cuda")}) {
    if (!root.empty() && executable(root + "/bin/ptxas") && executable(root + "/bin/fatbinary")) {
      out.ptxas = root + "/bin/ptxas";
      out.fatbinary = root + "/bin/fatbinary";
      break;
    }
  }
  return "";
}

// warm: registers the binary's kernel images with the runtime, as the binary
// itself would at start-up (with stand-in host entries), and builds each
// kernel for each chosen device, as an executable kernel bundle does: the
// binaries land in the runtime's persistent cache, where the program's own
// launches find them. Kernels compiled per launch values (local accessor
// ranges, specialization constants) get those variants at their launches.
// With a target instead of devices, the JIT's output for it goes into the
// cache (sycl::detail::build_kernel_for_target).
int warm(const std::string &path, const std::string &deviceTerm, const WarmTarget *target) {
  static std::vector<uint8_t> file;  // the runtime keeps pointers into the images
  std::string error;
  onepass::tools::SectionContents section;
  std::vector<onepass::image::ImageView> images;
  if (!onepass::tools::readFileBytes(path, file, error) ||
      !onepass::tools::findElfSection(file.data(), file.size(), onepass::image::kSectionName, section, error) ||
      (section.found && !onepass::image::splitImageSection(section.data, section.size, images, error))) {
    std::fprintf(stderr, "onepass-cache: %s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  if (images.empty()) {
    std::fprintf(stderr, "onepass-cache: %s: contains no OnePass kernel images (built with onepass++ -fsycl-sscp?)\n",
                 path.c_str());
    return 1;
  }
  static std::vector<std::vector<char>> standIns;  // one address per kernel: its host entry here
  std::vector<std::pair<const void *, std::string>> kernels;
  for (const onepass::image::ImageView &image : images) {
    standIns.emplace_back(std::max<size_t>(1, image.kernels().size()));
    std::vector<const void *> entries;
    for (size_t k = 0; k < image.kernels().size(); ++k) {
      entries.push_back(&standIns.back()[k]);
      kernels.emplace_back(&standIns.back()[k], std::string(image.kernels()[k].displayName));
    }
    onepassRegisterImage(image.data(), image.totalSize(), entries.data(), entries.size());
  }
  if (target) {
    int built = 0, found = 0, failed = 0;
    const bool fat = !target->ptxas.empty();
    if (target->kind == ONEPASS_JIT_TARGET_PTX && !fat)
      std::printf("note: no ptxas and fatbinary (CUDA toolkit; ONEPASS_CUDA_PATH): the entries hold PTX, which the "
                  "driver compiles at each kernel's first launch\n");
    const auto start = std::chrono::steady_clock::now();
    for (const auto &[entry, name] : kernels) {
      bool there = false;
      const std::string error = sycl::detail::build_kernel_for_target(
          entry, target->kind, target->arch, target->library.c_str(), target->libraryMissing.c_str(),
          fat ? ptxToFatBinary : nullptr, const_cast<WarmTarget *>(target), there);
      if (!error.empty()) {
        ++failed;
        std::fprintf(stderr, "onepass-cache: kernel '%s' for %s: %s\n", name.c_str(), target->name.c_str(),
                     error.c_str());
      } else {
        ++(there ? found : built);
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %d kernels compiled for %s%s in %.2f s, %d already in the cache, %d failed (a device of the "
                "target finalizes them at its first launch)\n",
                path.c_str(), built, target->name.c_str(), fat ? " (PTX and ptxas's cubin)" : "", seconds, found,
                failed);
    return failed ? 1 : 0;
  }
  // The runtime selects the devices (its grammar; a term naming an
  // experimental backend loads it).
  if (!deviceTerm.empty()) setenv("ONEPASS_DEVICE_SELECTOR", deviceTerm.c_str(), 1);
  std::vector<sycl::device> devices;
  try {
    devices = sycl::device::get_devices();
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "onepass-cache: --device: %s\n", e.what());
    return 2;
  }
  if (devices.empty()) {
    std::fprintf(stderr, "onepass-cache: no device matches '%s' (%s)\n", deviceTerm.c_str(),
                 sycl::detail::describe_absent_backends().c_str());
    return 1;
  }
  int built = 0, skipped = 0, failed = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const sycl::device &device : devices) {
    const std::string deviceName = device.get_info<sycl::info::device::name>();
    for (const auto &[entry, name] : kernels) {
      const std::string why = sycl::detail::kernel_incompatibility(entry, *device.impl());
      if (!why.empty()) {
        ++skipped;
        continue;
      }
      try {
        sycl::detail::build_kernel(entry, *device.impl());
        ++built;
      } catch (const sycl::exception &e) {
        ++failed;
        std::fprintf(stderr, "onepass-cache: kernel '%s' for '%s': %s\n", name.c_str(), deviceName.c_str(), e.what());
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %d kernel binaries built or found in the cache for %zu device(s) in %.2f s, %d skipped (the device "
              "cannot run them), %d failed\n",
              path.c_str(), built, devices.size(), seconds, skipped, failed);
  return failed ? 1 : 0;
}

int usage(const char *problem) {
  std::fprintf(stderr,
               "onepass-cache: %s\nusage: onepass-cache [--dir <directory>] ls | stats | prune [--max-size <size>] | "
               "verify | clear | warm <binary> [--device <selector> | --target ptx|spirv|amdgcn [--arch <arch>]]\n",
               problem);
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  std::string directory = onepass::rt::env::cacheDirectory(), command, binary, device;
  std::string maxSize, target, arch;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("usage: onepass-cache [--dir <directory>] <command>\n"
                  "The persistent JIT cache (default: $ONEPASS_CACHE_DIR, else $XDG_CACHE_HOME/onepass, else "
                  "~/.cache/onepass).\n"
                  "  ls                       the entries, least recently used first (size, last use, what)\n"
                  "  stats                    how many entries, how big, the cap (ONEPASS_CACHE_MAX_SIZE)\n"
                  "  prune [--max-size <n>]   evicts least recently used entries down to the cap (bytes, or K/M/G/T)\n"
                  "  verify                   reads every entry, removes those that do not check out\n"
                  "  clear                    removes every entry\n"
                  "  warm <binary> [--device <selector>]\n"
                  "                           JIT-compiles every kernel of a binary built with onepass++\n"
                  "                           for every device (or those a selector term picks)\n"
                  "  warm <binary> --target ptx|spirv|amdgcn [--arch sm_90|gfx942]\n"
                  "                           the same for a GPU target, with no device of it here (for\n"
                  "                           the GPU nodes of a cluster): the JIT's output goes into the\n"
                  "                           cache, the device finalizes it at its first launch\n");
      return 0;
    }
    if (arg == "--dir" && i + 1 < argc) directory = argv[++i];
    else if (arg == "--max-size" && i + 1 < argc) maxSize = argv[++i];
    else if (arg == "--device" && i + 1 < argc) device = argv[++i];
    else if (arg == "--target" && i + 1 < argc) target = argv[++i];
    else if (arg.rfind("--target=", 0) == 0) target = arg.substr(9);
    else if (arg == "--arch" && i + 1 < argc) arch = argv[++i];
    else if (arg.rfind("--arch=", 0) == 0) arch = arg.substr(7);
    else if (command.empty() && arg[0] != '-') command = arg;
    else if (command == "warm" && binary.empty() && arg[0] != '-') binary = arg;
    else return usage(("unexpected argument '" + arg + "'").c_str());
  }
  if (command.empty()) return usage("which command?");
  if (command == "warm") {
    if (binary.empty()) return usage("warm needs a binary");
    // The runtime's own cache: --dir sets it for the runtime too.
    if (directory != onepass::rt::env::cacheDirectory()) setenv("ONEPASS_CACHE_DIR", directory.c_str(), 1);
    if (!arch.empty() && target.empty()) return usage("--arch goes with --target");
    if (target.empty()) return warm(binary, device, nullptr);
    if (!device.empty()) return usage("warm takes --device or --target, not both");
    WarmTarget warmTarget;
    if (std::string problem = parseTarget(target, arch, warmTarget); !problem.empty()) return usage(problem.c_str());
    return warm(binary, device, &warmTarget);
  }
  if (!device.empty() || !target.empty() || !arch.empty()) return usage("--device, --target and --arch go with warm");
  if (directory.empty()) return usage("no cache directory (set ONEPASS_CACHE_DIR or HOME, or pass --dir)");
  const KernelCache cache(directory);

  uint64_t cap = onepass::rt::env::cacheMaxSize();
  if (!maxSize.empty()) {
    if (command != "prune") return usage("--max-size goes with prune");
    if (!onepass::rt::env::parseSize(maxSize, cap))
      return usage(("--max-size '" + maxSize + "' is not a size (bytes, or with K, M, G, T)").c_str());
  }

  if (command == "ls" || command == "stats") {
    std::vector<KernelCache::Entry> entries = cache.entries(/*verify=*/false);
    std::sort(entries.begin(), entries.end(),
              [](const KernelCache::Entry &a, const KernelCache::Entry &b) { return a.lastUse < b.lastUse; });
    uint64_t total = 0;
    for (const KernelCache::Entry &entry : entries) total += entry.size;
    if (command == "ls") {
      const std::time_t now = std::time(nullptr);
      for (const KernelCache::Entry &entry : entries) {
        const std::string name = entry.path.substr(entry.path.rfind('/') + 1);
        std::printf("%s  %10s  used %6.1f h ago  %s\n", name.c_str(), humanSize(entry.size).c_str(),
                    (now - entry.lastUse) / 3600.0, describeKey(entry.key).c_str());
      }
    }
    std::printf("%s: %zu entries, %s (cap %s, ONEPASS_CACHE_MAX_SIZE)\n", directory.c_str(), entries.size(),
                humanSize(total).c_str(), cap ? humanSize(cap).c_str() : "none");
    return 0;
  }
  if (command == "prune") {
    if (cap == 0) {
      std::printf("%s: no cap (ONEPASS_CACHE_MAX_SIZE=0): nothing to prune\n", directory.c_str());
      return 0;
    }
    const uint64_t removed = cache.prune(cap);
    std::printf("%s: removed %s of least recently used entries (cap %s)\n", directory.c_str(),
                humanSize(removed).c_str(), humanSize(cap).c_str());
    return 0;
  }
  if (command == "verify") {
    size_t good = 0, bad = 0;
    for (const KernelCache::Entry &entry : cache.entries(/*verify=*/true)) {
      if (entry.valid) {
        ++good;
      } else {
        std::printf("removed %s: %s\n", entry.path.c_str(),
                    entry.entry ? "damaged (size, key or checksum)" : "not a cache entry");
        std::remove(entry.path.c_str());
        ++bad;
      }
    }
    std::printf("%s: %zu entries check out, %zu removed\n", directory.c_str(), good, bad);
    return 0;
  }
  if (command == "clear") {
    const std::vector<KernelCache::Entry> entries = cache.entries(/*verify=*/false);
    size_t removed = 0;
    for (const KernelCache::Entry &entry : entries) removed += std::remove(entry.path.c_str()) == 0;
    std::printf("%s: removed %zu entries\n", directory.c_str(), removed);
    return 0;
  }
  return usage(("unknown command '" + command + "'").c_str());
}
