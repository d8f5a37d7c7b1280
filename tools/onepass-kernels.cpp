// onepass-kernels: lists the SYCL kernels a binary built with
// `onepass++ -fsycl-sscp` carries, and writes out a kernel's bitcode.
//
// It reads the ELF section the linker collected the kernel images in and
// prints each image the way the runtime sees it. Its output format is relied
// on by lit tests: change it only together with them.
#include "ElfSections.h"
#include "KernelImage.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace image = onepass::image;

constexpr const char *kToolName = "onepass-kernels";

struct Options {
  std::string binaryPath;
  bool dumpBitcode = false;
  std::string kernelSpec;  // what --dump-bitcode names
  std::string outputPath;  // -o; "-" is standard output
};

void printUsage(FILE *stream) {
  std::fprintf(stream, "USAGE: onepass-kernels [options] <binary>\n"
                       "\n"
                       "Lists the SYCL kernels embedded in a program, shared library or object file\n"
                       "built with `onepass++ -fsycl-sscp`, or writes out a kernel's bitcode.\n"
                       "\n"
                       "OPTIONS:\n"
                       "  --dump-bitcode <kernel>  Write the bitcode of the image holding <kernel>\n"
                       "                           (all kernels of its translation unit), uncompressed.\n"
                       "                           <kernel> is a kernel's symbol or name as listed, or\n"
                       "                           image:kernel indices such as 0:1\n"
                       "  -o <file>                Where --dump-bitcode writes (- for standard output)\n"
                       "  --help                   Print this help\n");
}

int fail(const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", kToolName, message.c_str());
  return 1;
}

int failUsage(const std::string &message) {
  fail(message);
  std::fprintf(stderr, "run '%s --help' for usage\n", kToolName);
  return 1;
}

// Returns -1 to continue, or the exit code to end with.
int parseOptions(int argc, char **argv, Options &options) {
  bool haveOutput = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      printUsage(stdout);
      return 0;
    }
    if (arg == "--dump-bitcode" || arg == "-o") {
      if (i + 1 >= argc) return failUsage(arg + " needs a value");
      if (arg == "-o") {
        options.outputPath = argv[++i];
        haveOutput = true;
      } else {
        options.kernelSpec = argv[++i];
        options.dumpBitcode = true;
      }
      continue;
    }
    if (arg.rfind("--dump-bitcode=", 0) == 0) {
      options.kernelSpec = arg.substr(std::strlen("--dump-bitcode="));
      options.dumpBitcode = true;
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') return failUsage("unknown option '" + arg + "'");
    if (!options.binaryPath.empty()) return failUsage("more than one binary given");
    options.binaryPath = arg;
  }
  if (options.binaryPath.empty()) return failUsage("no binary given");
  if (options.dumpBitcode && !haveOutput) return failUsage("--dump-bitcode needs -o <file> (- for standard output)");
  if (haveOutput && !options.dumpBitcode) return failUsage("-o is only used with --dump-bitcode");
  return -1;
}

void printImages(const std::vector<image::ImageView> &images) {
  for (size_t i = 0; i < images.size(); ++i) {
    const image::ImageView &img = images[i];
    const size_t kernelCount = img.kernels().size();
    std::printf("image %zu: id %016" PRIx64 ", %zu %s, bitcode %" PRIu64 " bytes", i, img.imageId(), kernelCount,
                kernelCount == 1 ? "kernel" : "kernels", img.bitcodeSize());
    if (img.bitcodeCompressed()) std::printf(" (zstd, %" PRIu64 " raw)", img.bitcodeRawSize());
    std::printf("\n");
    for (size_t k = 0; k < kernelCount; ++k) {
      const image::KernelView &kernel = img.kernels()[k];
      // %.*s: the names are string_views into the image, not NUL-terminated.
      std::printf("  kernel %zu: %.*s\n", k, static_cast<int>(kernel.displayName.size()), kernel.displayName.data());
      std::printf("    symbol: %.*s\n", static_cast<int>(kernel.symbol.size()), kernel.symbol.data());
      std::printf("    kind: %s, dimensions: %u\n", image::toString(kernel.kind), kernel.dimensions);
      std::printf("    source: %.*s:%u:%u\n", static_cast<int>(kernel.sourceFile.size()), kernel.sourceFile.data(),
                  kernel.line, kernel.column);
      std::printf("    object: %u bytes, align %u\n", kernel.objectSize, kernel.objectAlign);
      if (kernel.reqdWorkGroupSize[0] != 0) {
        std::printf("    required work-group size:");
        for (uint32_t d = 0; d < kernel.dimensions; ++d)
          std::printf("%s%u", d ? " x " : " ", kernel.reqdWorkGroupSize[d]);
        std::printf("\n");
      }
      if (kernel.reqdSubGroupSize != 0) std::printf("    required sub-group size: %u\n", kernel.reqdSubGroupSize);
      if (kernel.groupLocalBytes != 0) std::printf("    group local memory: %u bytes\n", kernel.groupLocalBytes);
      for (size_t f = 0; f < kernel.fields.size(); ++f) {
        const image::FieldView &field = kernel.fields[f];
        std::printf("    field %zu: offset %u, size %u, %s%s\n", f, field.offset, field.size,
                    image::toString(field.kind), field.flags & image::kFieldLaunchConstant ? ", launch constant" : "");
      }
    }
  }
}

// Parses "<image>:<kernel>" with decimal indices; false for anything else.
bool parseIndexPair(const std::string &spec, size_t &imageIndex, size_t &kernelIndex) {
  size_t colon = spec.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size()) return false;
  if (spec.find_first_not_of("0123456789:") != std::string::npos || spec.find(':', colon + 1) != std::string::npos ||
      colon > 9 || spec.size() - colon > 10)
    return false;
  imageIndex = std::stoul(spec.substr(0, colon));
  kernelIndex = std::stoul(spec.substr(colon + 1));
  return true;
}

// Finds the image holding the kernel `spec` names: by symbol or display name
// first (a name may itself contain ':'), then by indices.
const image::ImageView *findImageOfKernel(const std::vector<image::ImageView> &images, const std::string &spec) {
  for (const image::ImageView &img : images)
    for (const image::KernelView &kernel : img.kernels())
      if (kernel.symbol == spec || kernel.displayName == spec) return &img;
  size_t imageIndex = 0, kernelIndex = 0;
  if (parseIndexPair(spec, imageIndex, kernelIndex) && imageIndex < images.size() &&
      kernelIndex < images[imageIndex].kernels().size())
    return &images[imageIndex];
  return nullptr;
}

std::string listKernels(const std::vector<image::ImageView> &images) {
  std::string list;
  for (size_t i = 0; i < images.size(); ++i)
    for (size_t k = 0; k < images[i].kernels().size(); ++k) {
      const image::KernelView &kernel = images[i].kernels()[k];
      list += "\n  " + std::to_string(i) + ":" + std::to_string(k) + "  " + std::string(kernel.displayName) + "  (" +
              std::string(kernel.symbol) + ")";
    }
  return list;
}

bool writeOutput(const std::string &path, const std::vector<uint8_t> &bytes, std::string &error) {
  if (path == "-") {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() || std::fflush(stdout) != 0) {
      error = "cannot write to standard output";
      return false;
    }
    return true;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  if (out) out.close();
  if (!out) {
    error = path + ": cannot write the file: " + std::strerror(errno);
    return false;
  }
  return true;
}

int dumpBitcode(const Options &options, const std::vector<image::ImageView> &images) {
  const image::ImageView *img = findImageOfKernel(images, options.kernelSpec);
  if (!img)
    return fail(options.binaryPath + ": no kernel named '" + options.kernelSpec +
                "'; the kernels are:" + listKernels(images));
  std::vector<uint8_t> bitcode;
  std::string error;
  if (!image::extractBitcode(*img, bitcode, error)) return fail(options.binaryPath + ": " + error);
  if (!writeOutput(options.outputPath, bitcode, error)) return fail(error);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  if (int exitCode = parseOptions(argc, argv, options); exitCode >= 0) return exitCode;
  const std::string &path = options.binaryPath;

  std::vector<uint8_t> file;
  std::string error;
  if (!onepass::tools::readFileBytes(path, file, error)) return fail(path + ": " + error);

  onepass::tools::SectionContents section;
  if (!onepass::tools::findElfSection(file.data(), file.size(), image::kSectionName, section, error))
    return fail(path + ": " + error);

  std::vector<image::ImageView> images;
  if (section.found && !image::splitImageSection(section.data, section.size, images, error))
    return fail(path + ": " + error);
  if (images.empty()) return fail(path + ": contains no OnePass kernel images");

  if (options.dumpBitcode) return dumpBitcode(options, images);
  printImages(images);
  return 0;
}
