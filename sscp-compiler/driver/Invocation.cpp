#include "Invocation.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

namespace onepass::driver {

namespace {

// Spellings of clang options whose value is the next argument. Their values
// are no inputs: `-o foo.cpp` names an output, it compiles nothing. An option
// not listed is taken to have no separate value.
const char *const kSeparateValueOptions[] = {
    "-o",
    "-I",
    "-D",
    "-U",
    "-L",
    "-l",
    "-x",
    "-include",
    "-include-pch",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-iwithsysroot",
    "-isysroot",
    "-imultilib",
    "-iframework",
    "-cxx-isystem",
    "-ivfsoverlay",
    "-MF",
    "-MT",
    "-MQ",
    "-MJ",
    "-Xlinker",
    "-Xclang",
    "-Xassembler",
    "-Xpreprocessor",
    "-Xopenmp-target",
    "-Xcuda-fatbinary",
    "-Xcuda-ptxas",
    "-Xoffload-linker",
    "-mllvm",
    "-target",
    "-arch",
    "-B",
    "-F",
    "-T",
    "-u",
    "-z",
    "-e",
    "-A",
    "-framework",
    "-dependency-file",
    "-dependency-dot",
    "-serialize-diagnostics",
    "--serialize-diagnostics",
    "-resource-dir",
    "--sysroot",
    "--config",
    "--param",
    "-working-directory",
    "--output",
    "--include-directory",
    "--define-macro",
    "--undefine-macro",
};

// Options after which clang stops before the link step.
const char *const kStopBeforeLinkOptions[] = {
    "-c", "-S", "-E", "-fsyntax-only", "-M", "-MM", "--precompile", "-emit-ast", "--analyze",
};

// `-x` languages that are C or C++ sources (for the plugin: anything clang
// parses as C or C++).
const char *const kSourceLanguages[] = {
    "c", "c++", "c-header", "c++-header", "cpp-output", "c++-cpp-output", "c-cpp-output",
};

template <size_t N> bool isOneOf(const std::string &text, const char *const (&list)[N]) {
  return std::any_of(std::begin(list), std::end(list), [&](const char *item) { return text == item; });
}

bool takesSeparateValue(const std::string &option) {
  // -Xarch_<arch> <arg> passes the next argument through.
  if (option.rfind("-Xarch_", 0) == 0) return true;
  return isOneOf(option, kSeparateValueOptions);
}

// One argument after response-file expansion, remembering where it came from
// so the flag can be removed from the original command line.
struct ExpandedArg {
  std::string text;
  size_t origin;  // index into the original arguments
  bool fromResponseFile;
};

constexpr int kMaxResponseFileDepth = 16;  // clang's own limit guards cycles too

bool readWholeFile(const std::string &path, std::string &text) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// Appends `arg`, or the contents of the response file it names, to `out`.
// A response file that cannot be read stays an argument: clang reports it as
// a missing input, which is the right error.
void expandArgument(const std::string &arg, const std::string &baseDir, size_t origin, bool fromResponseFile, int depth,
                    std::vector<ExpandedArg> &out) {
  if (arg.size() < 2 || arg[0] != '@' || depth >= kMaxResponseFileDepth) {
    out.push_back({arg, origin, fromResponseFile});
    return;
  }
  std::string path = arg.substr(1);
  std::string text;
  if (!readWholeFile(path, text)) {
    // Nested response files may be named relative to the file naming them.
    if (path[0] == '/' || baseDir.empty() || !readWholeFile(baseDir + path, text)) {
      out.push_back({arg, origin, fromResponseFile});
      return;
    }
    path = baseDir + path;
  }
  for (const std::string &token : tokenizeResponseFile(text))
    expandArgument(token, directoryOf(path), origin, /*fromResponseFile=*/true, depth + 1, out);
}

}  // namespace

bool isSourceFileName(const std::string &path) {
  // Same extensions clang maps to C and C++ (clang/lib/Driver/Types.cpp).
  static const char *const kSourceExtensions[] = {
      "c", "C", "cc", "CC", "cp", "cpp", "CPP", "cxx", "CXX", "c++", "i", "ii",
  };
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
  return isOneOf(path.substr(dot + 1), kSourceExtensions);
}

bool isCudaFileName(const std::string &path) {
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
  return path.substr(dot + 1) == "cu";
}

std::vector<std::string> cudaSourcesAsCxx(const std::vector<std::string> &args) {
  // Options of CUDA compilations, meaningless for a C++ one (the value of
  // each is joined with `=`, or there is none).
  static const char *const kCudaOnlyPrefixes[] = {
      "--cuda-gpu-arch=", "--offload-arch=", "--cuda-path=", "--no-cuda-gpu-arch=", "--no-offload-arch=",
  };
  static const char *const kCudaOnlyOptions[] = {
      "--cuda-host-only",
      "--cuda-device-only",
      "--cuda-compile-host-device",
      "--no-offload-new-driver",
      "--offload-new-driver",
      "-nocudainc",
      "-nocudalib",
      "--cuda-noopt-device-debug",
      "-fgpu-rdc",
      "-fno-gpu-rdc",
  };
  std::vector<std::string> out;
  bool explicitLanguage = false;  // a -x other than none is in force
  bool inserted = false;          // our `-x c++` is in force (for .cu inputs)
  bool onlyInputs = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (onlyInputs || arg.size() < 2 || arg[0] != '-') {
      const bool cu = !explicitLanguage && isCudaFileName(arg);
      if (cu != inserted && !explicitLanguage) out.insert(out.end(), {"-x", cu ? "c++" : "none"});
      if (!explicitLanguage) inserted = cu;
      out.push_back(arg);
      continue;
    }
    if (arg == "--") onlyInputs = true;
    if (isOneOf(arg, kCudaOnlyOptions) || std::any_of(std::begin(kCudaOnlyPrefixes), std::end(kCudaOnlyPrefixes),
                                                      [&](const char *prefix) { return arg.rfind(prefix, 0) == 0; }))
      continue;
    std::string language;
    if (arg == "-x" && i + 1 < args.size()) language = args[i + 1];
    else if (arg.size() > 2 && arg.rfind("-x", 0) == 0) language = arg.substr(2);
    if (!language.empty()) {
      explicitLanguage = language != "none";
      inserted = false;
      if (language == "cuda") language = "c++";
      out.insert(out.end(), {"-x", language});
      if (arg == "-x") ++i;
      continue;
    }
    out.push_back(arg);
    if (takesSeparateValue(arg) && i + 1 < args.size()) out.push_back(args[++i]);
  }
  return out;
}

std::vector<std::string> tokenizeResponseFile(const std::string &text) {
  std::vector<std::string> tokens;
  std::string current;
  bool inToken = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
      else current += c;
      continue;
    }
    if (c == '\\' && i + 1 < text.size()) {
      current += text[++i];
      inToken = true;
      continue;
    }
    if (quote == '"') {
      if (c == '"') quote = 0;
      else current += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      inToken = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (inToken) tokens.push_back(current);
      current.clear();
      inToken = false;
      continue;
    }
    current += c;
    inToken = true;
  }
  if (inToken) tokens.push_back(current);
  return tokens;
}

Invocation classifyInvocation(const std::vector<std::string> &args) {
  std::vector<ExpandedArg> expanded;
  for (size_t i = 0; i < args.size(); ++i)
    expandArgument(args[i], std::string(), i, /*fromResponseFile=*/false, 0, expanded);

  Invocation inv;
  std::vector<bool> isOnePassFlag(expanded.size(), false);
  bool flagInResponseFile = false;
  enum class Language { ByExtension, Source, Other } language = Language::ByExtension;
  bool onlyInputsFollow = false;  // after "--"

  bool cudaLanguage = false;  // -x cuda in force
  auto noteInput = [&](const std::string &path) {
    inv.hasInputs = true;
    const bool cuda =
        (language == Language::Source && cudaLanguage) || (language == Language::ByExtension && isCudaFileName(path));
    if (language == Language::Source || (language == Language::ByExtension && isSourceFileName(path)) || cuda)
      inv.compilesSource = true;
    inv.compilesCuda |= cuda;
  };
  auto setLanguage = [&](const std::string &name) {
    cudaLanguage = name == "cuda";
    if (name == "none") language = Language::ByExtension;
    else language = isOneOf(name, kSourceLanguages) || cudaLanguage ? Language::Source : Language::Other;
  };

  for (size_t i = 0; i < expanded.size(); ++i) {
    const std::string &arg = expanded[i].text;
    if (onlyInputsFollow || arg.size() < 2 || arg[0] != '-') {
      noteInput(arg);  // includes "-" (standard input)
      continue;
    }
    if (arg == "--") {
      onlyInputsFollow = true;
      continue;
    }
    if (arg == kSscpFlag || arg == kNoSscpFlag) {
      inv.mentionsSscp = true;
      inv.sscpEnabled = arg == kSscpFlag;
      isOnePassFlag[i] = true;
      flagInResponseFile |= expanded[i].fromResponseFile;
      continue;
    }
    if (arg.rfind(kInteropFlagPrefix, 0) == 0) {
      inv.interop = arg.substr(std::string(kInteropFlagPrefix).size());
      isOnePassFlag[i] = true;
      flagInResponseFile |= expanded[i].fromResponseFile;
      continue;
    }
    if (isOneOf(arg, kStopBeforeLinkOptions)) inv.stopsBeforeLink = true;
    if (arg == "-v" || arg == "-###") inv.verbose = true;
    if (arg == "--help" || arg == "-help") inv.wantsHelp = true;
    if (arg == "--onepass-version") inv.wantsOnePassVersion = true;
    if (arg.rfind("-l", 0) == 0) inv.hasInputs = true;  // a library is a linker input
    if (arg.size() > 2 && arg.rfind("-x", 0) == 0) setLanguage(arg.substr(2));
    if (takesSeparateValue(arg) && i + 1 < expanded.size()) {
      if (arg == "-x") setLanguage(expanded[i + 1].text);
      ++i;  // the value is no input, whatever it looks like
    }
  }

  // Remove the OnePass flags: from the expanded list if one hid in a response
  // file, otherwise from the original arguments (keeping response files).
  if (flagInResponseFile) {
    for (size_t i = 0; i < expanded.size(); ++i)
      if (!isOnePassFlag[i]) inv.clangArgs.push_back(expanded[i].text);
    return inv;
  }
  std::vector<bool> dropOriginal(args.size(), false);
  for (size_t i = 0; i < expanded.size(); ++i)
    if (isOnePassFlag[i]) dropOriginal[expanded[i].origin] = true;
  for (size_t i = 0; i < args.size(); ++i)
    if (!dropOriginal[i]) inv.clangArgs.push_back(args[i]);
  return inv;
}

}  // namespace onepass::driver
