// libFuzzer target (issue 21): the kernel-image reader (common/image), which
// the runtime, the JIT and the tools run on every image a binary carries and
// on every library image the JIT links. Any input must be rejected with an
// error or read in bounds: never a crash, an out-of-bounds read (ASan) or
// undefined behaviour (UBSan), nor an allocation the input's size does not
// justify.
#include "KernelImage.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Images sit 8-aligned in their section: read from such a copy.
  std::vector<uint64_t> aligned((size + 7) / 8);
  if (size) std::memcpy(aligned.data(), data, size);
  for (bool verifyHash : {false, true}) {
    onepass::image::ImageView view;
    std::string error;
    if (!view.parse(aligned.data(), size, verifyHash, error)) {
      if (error.empty()) __builtin_trap();  // a rejection always says why
      continue;
    }
    // Touch what readers use.
    size_t sum = 0;
    for (const onepass::image::KernelView &kernel : view.kernels()) {
      sum += kernel.symbol.size() + kernel.displayName.size() + kernel.sourceFile.size() + kernel.specKeys.size();
      for (const onepass::image::FieldView &field : kernel.fields) sum += field.offset + field.size;
    }
    std::vector<uint8_t> bitcode;
    if (!onepass::image::extractBitcode(view, bitcode, error) && error.empty()) __builtin_trap();
    (void)sum;
  }
  return 0;
}
