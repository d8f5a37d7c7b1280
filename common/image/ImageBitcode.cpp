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
  // Checked before anything is allocated for it: the size the image declares
  // must be the one its zstd frame declares, and plausible for bitcode (which
  // compresses a few times over, never a thousandfold).
  const unsigned long long frameSize = ZSTD_getFrameContentSize(image.bitcode(), image.bitcodeSize());
  if (frameSize == ZSTD_CONTENTSIZE_ERROR || frameSize == ZSTD_CONTENTSIZE_UNKNOWN || frameSize != rawSize) {
    error = "kernel image bitcode is not a zstd frame of the declared " + std::to_string(rawSize) + " bytes";
    return false;
  }
  if (rawSize > (uint64_t(1) << 32) || rawSize > image.bitcodeSize() * 1024 + (uint64_t(1) << 20)) {
    error = "kernel image declares an implausible bitcode size of " + std::to_string(rawSize) + " bytes (" +
            std::to_string(image.bitcodeSize()) + " compressed)";
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
