// onepass++: the OnePass compiler driver, a drop-in replacement for clang++.
//
// Without -fsycl-sscp it is clang++: it runs clang++ with the same arguments.
// With -fsycl-sscp it adds what a SYCL program needs (the OnePass clang
// plugin, the SYCL headers, the OnePass runtime) and runs clang++ in its
// place, so exit codes and diagnostics are exactly clang's.
//
// Every path is found relative to the installation (the parent of the
// directory holding this executable), so a build tree or an install tree can
// be moved anywhere.
#include "Invocation.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#ifndef ONEPASS_DEFAULT_CLANGXX
#define ONEPASS_DEFAULT_CLANGXX "clang++-22"
#endif
#ifndef ONEPASS_VERSION
#define ONEPASS_VERSION "unknown"
#endif

namespace {

using onepass::driver::Invocation;

constexpr const char *kToolName = "onepass++";

// Where the pieces of an installation live, relative to its prefix.
struct InstallLayout {
  std::string prefix;

  std::string plugin() const { return prefix + "/lib/onepass/libonepass-clang-plugin.so"; }
  std::string includeDir() const { return prefix + "/include/onepass"; }
  std::string libDir() const { return prefix + "/lib"; }
  std::string runtimeLibrary() const { return libDir() + "/libonepass-rt.so"; }
};

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", kToolName, message.c_str());
  std::exit(1);
}

std::string parentDirectory(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// /proc/self/exe names the real executable even when it was started through a
// symlink or from $PATH, which argv[0] does not.
InstallLayout findInstallLayout() {
  char resolved[PATH_MAX];
  if (!realpath("/proc/self/exe", resolved))
    fail(std::string("cannot locate the onepass++ executable: ") + std::strerror(errno));
  std::string prefix = parentDirectory(parentDirectory(resolved));
  if (prefix == "/") prefix.clear();  // avoid "//lib" for an install in /bin
  return InstallLayout{prefix};
}

bool isRegularFile(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string clangxxPath() {
  const char *fromEnvironment = std::getenv("ONEPASS_CLANGXX");
  if (fromEnvironment && *fromEnvironment) return fromEnvironment;
  return ONEPASS_DEFAULT_CLANGXX;
}

// Quotes an argument for display, the way a shell would need it.
std::string quoteForDisplay(const std::string &arg) {
  if (!arg.empty() && arg.find_first_of(" \t\n\"'\\$`") == std::string::npos) return arg;
  std::string quoted = "\"";
  for (char c : arg) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

[[noreturn]] void runClang(const std::vector<std::string> &command) {
  std::vector<char *> argv;
  for (const std::string &arg : command) argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  // A bare name (ONEPASS_CLANGXX=clang++) is looked up on $PATH like a shell would.
  if (command[0].find('/') == std::string::npos) execvp(argv[0], argv.data());
  else execv(argv[0], argv.data());
  fail("cannot run '" + command[0] + "': " + std::strerror(errno) + " (set ONEPASS_CLANGXX to the clang++ 22 to use)");
}

// The CUDA toolkit (for cuda.h and the libcuda stub): $CUDA_PATH,
// $CUDA_HOME, or /usr/local/cuda.
std::string cudaToolkit() {
  std::string where;
  for (const char *variable : {"CUDA_PATH", "CUDA_HOME"}) {
    const char *value = std::getenv(variable);
    if (value && *value) {
      where = value;
      break;
    }
  }
  if (where.empty()) where = "/usr/local/cuda";
  if (!isRegularFile(where + "/include/cuda.h"))
    fail("CUDA interoperability (-fsycl-interop=cuda, or a .cu source) needs the CUDA toolkit's cuda.h, which is "
         "not in " +
         where + "/include (set CUDA_PATH to the toolkit)");
  return where;
}

void printHelp() {
  std::printf("OVERVIEW: onepass++ %s, the OnePass SYCL 2020 compiler (clang++ with OnePass)\n"
              "\n"
              "USAGE: onepass++ -fsycl-sscp [clang++ options] <inputs>\n"
              "\n"
              "onepass++ runs clang++ with the arguments it is given. With -fsycl-sscp it\n"
              "also loads the OnePass clang plugin and adds the SYCL headers when it\n"
              "compiles C++, and links the OnePass runtime when it links. Kernels are\n"
              "compiled once into portable bitcode and compiled for the device at run time.\n"
              "\n"
              "ONEPASS OPTIONS:\n"
              "  -fsycl-sscp         Compile SYCL 2020 code (single source, single pass) and\n"
              "                      link the OnePass runtime\n"
              "  -fno-sycl-sscp      Cancel an earlier -fsycl-sscp\n"
              "  -fsycl-interop=cuda With -fsycl-sscp, use the CUDA backend's interoperability:\n"
              "                      defines SYCL_BACKEND_CUDA, adds the CUDA toolkit's headers\n"
              "                      ($CUDA_PATH, else /usr/local/cuda) and links libcuda.\n"
              "                      Implied for .cu sources, which are compiled as SYCL C++\n"
              "                      (__device__/__host__ accepted, __global__ kernels not)\n"
              "  -v, -###            With -fsycl-sscp, first print the real clang++ command\n"
              "                      onepass++ runs; clang++ then prints its own commands\n"
              "  --onepass-version   Print the OnePass version and exit\n"
              "  --help              Print this help and exit\n"
              "\n"
              "ENVIRONMENT:\n"
              "  ONEPASS_CLANGXX     The clang++ to run (default: %s)\n"
              "\n"
              "Every other option is clang++'s; for those see `clang++ --help`.\n",
              ONEPASS_VERSION, ONEPASS_DEFAULT_CLANGXX);
}

}  // namespace

int main(int argc, char **argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const Invocation inv = onepass::driver::classifyInvocation(args);

  if (inv.wantsHelp) {
    printHelp();
    return 0;
  }
  if (inv.wantsOnePassVersion) {
    std::printf("onepass++ %s (LLVM 22)\n", ONEPASS_VERSION);
    return 0;
  }

  std::vector<std::string> command{clangxxPath()};
  if (!inv.mentionsSscp && inv.interop.empty()) {
    command.insert(command.end(), args.begin(), args.end());
    runClang(command);
  }
  if (!inv.sscpEnabled) {  // plain clang++ (-fsycl-interop= means nothing without -fsycl-sscp)
    command.insert(command.end(), inv.clangArgs.begin(), inv.clangArgs.end());
    runClang(command);
  }
  if (!inv.interop.empty() && inv.interop != "cuda")
    fail("-fsycl-interop=" + inv.interop + ": unknown backend (OnePass offers: cuda)");
  // CUDA interoperability: a .cu source, or -fsycl-interop=cuda.
  const bool cuda = inv.interop == "cuda" || inv.compilesCuda;
  const std::string toolkit = cuda ? cudaToolkit() : std::string();

  const InstallLayout layout = findInstallLayout();
  // Flags are added only where clang uses them, so it warns about none of them
  // as unused (-c gets no -L, a link of objects no plugin).
  if (inv.compilesSource) {
    if (!isRegularFile(layout.plugin())) fail("the OnePass clang plugin is missing: " + layout.plugin());
    command.push_back("-fplugin=" + layout.plugin());
    command.push_back("-fpass-plugin=" + layout.plugin());
    command.push_back("-isystem");
    command.push_back(layout.includeDir());
    command.push_back("-D__ONEPASS_SSCP__=1");
    // sycl::half arithmetic rounds every operation to half (what GPUs' half
    // instructions do), on the host too, instead of x86's default of
    // computing whole expressions in float: device code keeps LLVM `half`
    // operations, which NVIDIA GPUs run natively, and host and device agree.
    command.push_back("-Xclang");
    command.push_back("-ffloat16-excess-precision=none");
    if (cuda) {
      // SYCL 2020 §4.1.1: the backend is there while building.
      command.push_back("-DSYCL_BACKEND_CUDA=1");
      command.push_back("-isystem");
      command.push_back(toolkit + "/include");
    }
    if (inv.compilesCuda) {
      // A .cu file is a SYCL translation unit: CUDA's function qualifiers are
      // accepted (every function can be called from SYCL kernels), CUDA
      // kernels are not.
      command.push_back("-D__host__=");
      command.push_back("-D__device__=");
      command.push_back("-D__forceinline__=__inline__ __attribute__((always_inline))");
      command.push_back("-D__global__=_Pragma(\"GCC error \\\"onepass++ compiles .cu files as SYCL: CUDA kernels "
                        "(__global__) are not supported; write a SYCL kernel, which may call __device__ "
                        "functions\\\"\")");
    }
  }
#ifdef ONEPASS_SANITIZE_LINK
  // A sanitizer build of OnePass (ONEPASS_SANITIZE): its runtime is
  // instrumented, so every program linked with it needs the sanitizers'
  // runtime. Before the user's arguments, which may change it; without
  // -fsanitize=function, which the runtime's calls through untyped pointers
  // (kernels, driver entry points) cannot satisfy. A command that also
  // compiles instruments that code too (compile and link separately to keep
  // it plain).
  if (inv.links()) {
    command.push_back("-fsanitize=" ONEPASS_SANITIZE_LINK);
    command.push_back("-fno-sanitize=function");
  }
#endif
  const std::vector<std::string> clangArgs =
      inv.compilesCuda ? onepass::driver::cudaSourcesAsCxx(inv.clangArgs) : inv.clangArgs;
  command.insert(command.end(), clangArgs.begin(), clangArgs.end());
  if (inv.links()) {
    if (!isRegularFile(layout.runtimeLibrary()))
      fail("the OnePass runtime library is missing: " + layout.runtimeLibrary());
    command.push_back("-L" + layout.libDir());
    command.push_back("-Wl,-rpath," + layout.libDir());
    // After the user's objects, so the linker resolves their runtime calls.
    command.push_back("-lonepass-rt");

    if (cuda) {  // the driver API (the toolkit's stub: the real libcuda.so.1 loads at run time)
      command.push_back("-L" + toolkit + "/lib64/stubs");
      command.push_back("-lcuda");
    }
  }

  if (inv.verbose) {
    std::string line;
    for (const std::string &arg : command) line += (line.empty() ? "" : " ") + quoteForDisplay(arg);
    std::fprintf(stderr, "%s: running: %s\n", kToolName, line.c_str());
  }
  runClang(command);
}
