// Classifies a clang++ command line the way the clang driver would read it,
// just far enough for onepass++ to know which flags to add: does it compile a
// C/C++ source, does it link, does it ask for -v/-###, and where does the
// OnePass flag -fsycl-sscp appear.
//
// This is not a full clang option parser. It knows the options whose value is
// a separate argument (so `-o foo.cpp` is no source input) and the options
// that stop before linking; everything else starting with '-' is an option
// and everything else is an input, exactly as clang treats unknown spellings.
#pragma once

#include <string>
#include <vector>

namespace onepass::driver {

// The OnePass flag that turns on single-source, single-pass SYCL compilation.
inline constexpr const char *kSscpFlag = "-fsycl-sscp";
inline constexpr const char *kNoSscpFlag = "-fno-sycl-sscp";
// -fsycl-interop=<backend>: the translation unit uses that backend's
// interoperability (SYCL 2020 §4.5.1): only "cuda" exists.
inline constexpr const char *kInteropFlagPrefix = "-fsycl-interop=";

struct Invocation {
  // The arguments to hand to clang++ (argv[1..]), with every -fsycl-sscp and
  // -fno-sycl-sscp removed. Response files are kept as they are unless one of
  // them contains the OnePass flag, in which case they are spliced in (clang
  // does not know the flag, so it must not see it).
  std::vector<std::string> clangArgs;

  bool mentionsSscp = false;  // -fsycl-sscp or -fno-sycl-sscp appeared at all
  std::string interop;        // the last -fsycl-interop= value ("" if none); removed from clangArgs
  bool compilesCuda = false;  // a CUDA source (.cu, or -x cuda)
  bool sscpEnabled = false;   // the last of the two was -fsycl-sscp
  bool compilesSource = false;
  bool hasInputs = false;  // any file input or -l library
  bool stopsBeforeLink = false;
  bool verbose = false;  // -v or -###
  bool wantsHelp = false;
  bool wantsOnePassVersion = false;

  // Whether clang will run the linker on this command line.
  bool links() const { return hasInputs && !stopsBeforeLink; }
};

// Reads argv[1..argc) (response files included, for classification).
Invocation classifyInvocation(const std::vector<std::string> &args);

// True if `path` names a file clang compiles as C or C++ (by its extension).
bool isSourceFileName(const std::string &path);

// True if `path` names a CUDA source (.cu).
bool isCudaFileName(const std::string &path);

// The arguments with CUDA sources compiled as C++ (a SYCL translation unit):
// `-x cuda` becomes `-x c++`, a .cu input is preceded by `-x c++` (and
// followed by `-x none`), and the options only CUDA compilations take
// (--cuda-gpu-arch=, --cuda-path=, --cuda-host-only, ...) are dropped.
std::vector<std::string> cudaSourcesAsCxx(const std::vector<std::string> &args);

// Splits the text of a GNU-style response file into arguments.
std::vector<std::string> tokenizeResponseFile(const std::string &text);

}  // namespace onepass::driver
