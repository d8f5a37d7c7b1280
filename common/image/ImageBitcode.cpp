// Bitcode extraction lives apart from the parser so that only users who need
// the bitcode (the JIT, the tools) link zstd; the runtime does not.
#include "KernelImage.h"

#include <zstd.h>

namespace onepass::image {

bool extractBitcode(const ImageView &image, std::vector<uint8_t> &out, std::string &error) {
  if (!image.bitcodeCompressed()) {
    out.assign(image.bitcode(), image.bitcode() + image.bitcodeSize());
    return true;
  }
  const uint64_t rawSize = image.bitcodeRawSize();
  if (rawSize > (uint64_t(1) << 32)) {
    error = "kernel image declares an implausible bitcode size of " + std::to_string(rawSize);
    return false;
  }
  out.resize(rawSize);
  size_t written = ZSTD_decompress(out.data(), out.size(), image.bitcode(), image.bitcodeSize());
  if (ZSTD_isError(written)) {
    error = std::string("kernel image bitcode does not decompress: ") + ZSTD_getErrorName(written);
    return false;
  }
  if (written != rawSize) {
    error = "kernel image bitcode decompressed to " + std::to_string(written) + " bytes, expected " +
            std::to_string(rawSize);
    return false;
  }
  return true;
}

}  // namespace onepass::image
