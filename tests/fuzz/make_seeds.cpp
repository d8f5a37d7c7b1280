// Writes the fuzzers' seed inputs (scripts/fuzz.sh): whole, valid kernel
// images of the shapes stage 1 writes (uncompressed and zstd bitcode, fields,
// attributes, aspects, specialization-constant keys, an exporting image), so
// that mutation starts from what the readers really see.
//   make_seeds <directory>
#include "KernelImage.h"

#include <zstd.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace onepass::image;

namespace {
void write(const std::string &path, const std::vector<uint8_t> &bytes) {
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file || std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size()) std::perror(path.c_str());
  if (file) std::fclose(file);
}

KernelDesc kernel(const std::string &name, KernelKind kind, uint32_t dimensions) {
  KernelDesc desc;
  desc.symbol = "__onepass_kernel_" + name;
  desc.displayName = name;
  desc.sourceFile = "seed.cpp";
  desc.line = 12;
  desc.column = 3;
  desc.kind = kind;
  desc.dimensions = dimensions;
  desc.objectSize = 24;
  desc.objectAlign = 8;
  desc.fields = {{0, 8, FieldKind::Pointer, 0}, {8, 4, FieldKind::Integer, kFieldLaunchConstant},
                 {16, 8, FieldKind::Float, 0}};
  return desc;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  const std::string dir = argv[1];
  std::vector<uint8_t> bitcode = {'B', 'C', 0xC0, 0xDE};
  for (int i = 0; i < 200; ++i) bitcode.push_back(static_cast<uint8_t>(i % 7));

  KernelDesc simple = kernel("simple", KernelKind::ParallelFor, 1);
  write(dir + "/plain", writeImage({simple}, bitcode.data(), bitcode.size(), false, bitcode.size()));

  KernelDesc grouped = kernel("grouped", KernelKind::NdRange, 2);
  grouped.reqdWorkGroupSize[0] = 8;
  grouped.reqdWorkGroupSize[1] = 4;
  grouped.reqdSubGroupSize = 16;
  grouped.groupLocalBytes = 256;
  grouped.features = kFeatureBarrier | kFeatureLocalMemory;
  grouped.deviceHas = true;
  grouped.requiredAspects = (1u << 1) | (1u << kAspectFp64);
  grouped.specKeys = {0x1234567812345678ull, 0xfedcba9876543210ull};
  std::vector<uint8_t> compressed(ZSTD_compressBound(bitcode.size()));
  compressed.resize(ZSTD_compress(compressed.data(), compressed.size(), bitcode.data(), bitcode.size(), 1));
  write(dir + "/compressed",
        writeImage({grouped, kernel("task", KernelKind::SingleTask, 0)}, compressed.data(), compressed.size(), true,
                   bitcode.size()));
  write(dir + "/exports", writeImage({}, bitcode.data(), bitcode.size(), false, bitcode.size(), /*exports=*/true));
  return 0;
}
