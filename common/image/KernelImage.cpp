#include "KernelImage.h"

#include <cstring>

namespace onepass::image {

uint64_t hashBytes(const void *data, size_t size, uint64_t seed) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  uint64_t hash = seed;
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string hexId(uint64_t value) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) text[i] = kDigits[value & 15];
  return text;
}

namespace {

size_t alignTo8(size_t value) { return (value + 7) & ~size_t(7); }

template <typename T> void appendPod(std::vector<uint8_t> &out, const T &value) {
  const auto *bytes = reinterpret_cast<const uint8_t *>(&value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

void padTo8(std::vector<uint8_t> &out) { out.resize(alignTo8(out.size()), 0); }

class StringTable {
public:
  StringRef32 add(const std::string &text) {
    StringRef32 ref{static_cast<uint32_t>(bytes_.size()), static_cast<uint32_t>(text.size())};
    bytes_.insert(bytes_.end(), text.begin(), text.end());
    return ref;
  }
  const std::vector<uint8_t> &bytes() const { return bytes_; }

private:
  std::vector<uint8_t> bytes_;
};

bool inBounds(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

}  // namespace

std::vector<uint8_t> writeImage(const std::vector<KernelDesc> &kernels, const void *bitcode, size_t bitcodeSize,
                                bool compressed, size_t rawSize, bool exports) {
  StringTable strings;
  std::vector<KernelRecord> kernelRecords;
  std::vector<FieldRecord> fieldRecords;
  for (const KernelDesc &k : kernels) {
    KernelRecord rec{};
    rec.symbol = strings.add(k.symbol);
    rec.displayName = strings.add(k.displayName);
    rec.sourceFile = strings.add(k.sourceFile);
    rec.line = k.line;
    rec.column = k.column;
    rec.kind = static_cast<uint32_t>(k.kind);
    rec.dimensions = k.dimensions;
    rec.firstField = static_cast<uint32_t>(fieldRecords.size());
    rec.fieldCount = static_cast<uint32_t>(k.fields.size());
    rec.objectSize = k.objectSize;
    rec.objectAlign = k.objectAlign;
    rec.features = k.features;
    rec.reqdSubGroupSize = k.reqdSubGroupSize;
    rec.groupLocalBytes = k.groupLocalBytes;
    rec.deviceHas = k.deviceHas ? 1 : 0;
    rec.requiredAspects = k.requiredAspects;
    std::string keys(k.specKeys.size() * sizeof(uint64_t), '\0');  // little-endian, as the records
    if (!k.specKeys.empty()) std::memcpy(keys.data(), k.specKeys.data(), keys.size());
    rec.specKeys = strings.add(keys);
    for (int d = 0; d < 3; ++d) rec.reqdWorkGroupSize[d] = k.reqdWorkGroupSize[d];
    kernelRecords.push_back(rec);
    for (const FieldDesc &f : k.fields)
      fieldRecords.push_back(FieldRecord{f.offset, f.size, static_cast<uint32_t>(f.kind), f.flags});
  }

  ImageHeader header{};
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.formatVersion = kFormatVersion;
  header.flags = (compressed ? kFlagZstd : 0) | (exports ? kFlagExports : 0);
  header.kernelCount = static_cast<uint32_t>(kernelRecords.size());
  header.fieldCount = static_cast<uint32_t>(fieldRecords.size());

  std::vector<uint8_t> body;  // everything after the header
  size_t cursor = sizeof(ImageHeader);
  header.kernelTableOffset = static_cast<uint32_t>(cursor);
  for (const KernelRecord &rec : kernelRecords) appendPod(body, rec);
  header.fieldTableOffset = static_cast<uint32_t>(sizeof(ImageHeader) + body.size());
  for (const FieldRecord &rec : fieldRecords) appendPod(body, rec);
  header.stringTableOffset = static_cast<uint32_t>(sizeof(ImageHeader) + body.size());
  header.stringTableSize = static_cast<uint32_t>(strings.bytes().size());
  body.insert(body.end(), strings.bytes().begin(), strings.bytes().end());
  padTo8(body);
  header.bitcodeOffset = sizeof(ImageHeader) + body.size();
  header.bitcodeSize = bitcodeSize;
  header.bitcodeRawSize = compressed ? rawSize : bitcodeSize;
  const auto *bc = static_cast<const uint8_t *>(bitcode);
  body.insert(body.end(), bc, bc + bitcodeSize);
  padTo8(body);
  header.totalSize = sizeof(ImageHeader) + body.size();

  // The id depends on content only (tables + bitcode), so rebuilding the same
  // source gives the same id and reuses the same cache entries.
  header.imageId = hashBytes(body.data(), body.size(), 0x6f6e65706173731full);
  header.contentHash = hashBytes(body.data(), body.size());

  std::vector<uint8_t> image;
  image.reserve(header.totalSize);
  appendPod(image, header);
  image.insert(image.end(), body.begin(), body.end());
  return image;
}

bool ImageView::parse(const void *data, size_t available, bool verifyHash, std::string &error) {
  base_ = static_cast<const uint8_t *>(data);
  kernels_.clear();
  if (available < sizeof(ImageHeader)) {
    error = "kernel image is truncated: " + std::to_string(available) + " bytes, smaller than its header";
    return false;
  }
  std::memcpy(&header_, base_, sizeof(ImageHeader));
  if (std::memcmp(header_.magic, kMagic, sizeof(kMagic)) != 0) {
    error = "kernel image has a bad magic number (not a OnePass kernel image)";
    return false;
  }
  if (header_.formatVersion != kFormatVersion && header_.formatVersion != 2) {
    error = "kernel image has format version " + std::to_string(header_.formatVersion) +
            ", this OnePass reads version " + std::to_string(kFormatVersion) +
            " (rebuild the program with this onepass++)";
    return false;
  }
  const uint64_t total = header_.totalSize;
  if (total < sizeof(ImageHeader) || total > available || total % 8 != 0) {
    error = "kernel image declares size " + std::to_string(total) + " but " + std::to_string(available) +
            " bytes are available";
    return false;
  }
  // A format 2 record is a prefix of today's (the rest reads as zeros).
  const size_t recordSize = header_.formatVersion == 2 ? kKernelRecordSizeV2 : sizeof(KernelRecord);
  if (!inBounds(header_.kernelTableOffset, uint64_t(header_.kernelCount) * recordSize, total) ||
      !inBounds(header_.fieldTableOffset, uint64_t(header_.fieldCount) * sizeof(FieldRecord), total) ||
      !inBounds(header_.stringTableOffset, header_.stringTableSize, total) ||
      !inBounds(header_.bitcodeOffset, header_.bitcodeSize, total)) {
    error = "kernel image has a table or bitcode outside its bounds";
    return false;
  }
  if (header_.kernelTableOffset % 4 != 0 || header_.fieldTableOffset % 4 != 0) {
    error = "kernel image has misaligned tables";
    return false;
  }
  if (verifyHash && hashBytes(base_ + sizeof(ImageHeader), total - sizeof(ImageHeader)) != header_.contentHash) {
    error = "kernel image content hash does not match (the image is corrupt)";
    return false;
  }

  const char *strings = reinterpret_cast<const char *>(base_ + header_.stringTableOffset);
  auto readString = [&](StringRef32 ref, std::string_view &out) {
    if (!inBounds(ref.offset, ref.size, header_.stringTableSize)) return false;
    out = std::string_view(strings + ref.offset, ref.size);
    return true;
  };

  for (uint32_t i = 0; i < header_.kernelCount; ++i) {
    KernelRecord rec{};
    std::memcpy(&rec, base_ + header_.kernelTableOffset + i * recordSize, recordSize);
    KernelView view{};
    if (!readString(rec.symbol, view.symbol) || !readString(rec.displayName, view.displayName) ||
        !readString(rec.sourceFile, view.sourceFile)) {
      error = "kernel image: kernel " + std::to_string(i) + " has a name outside the string table";
      return false;
    }
    if (rec.kind > static_cast<uint32_t>(KernelKind::NdRange) || rec.dimensions > 3) {
      error = "kernel image: kernel '" + std::string(view.symbol) + "' has an invalid kind";
      return false;
    }
    if (!inBounds(rec.firstField, rec.fieldCount, header_.fieldCount)) {
      error = "kernel image: kernel '" + std::string(view.symbol) + "' has fields outside the table";
      return false;
    }
    view.line = rec.line;
    view.column = rec.column;
    view.kind = static_cast<KernelKind>(rec.kind);
    view.dimensions = rec.dimensions;
    view.objectSize = rec.objectSize;
    view.objectAlign = rec.objectAlign;
    view.features = rec.features;
    // A required work-group size names every dimension of the kernel's
    // range and no other.
    const bool required = rec.reqdWorkGroupSize[0] != 0;
    for (uint32_t d = 0; d < 3; ++d)
      if (required && (rec.reqdWorkGroupSize[d] != 0) != (d < rec.dimensions)) {
        error = "kernel image: kernel '" + std::string(view.symbol) + "' has an invalid required work-group size";
        return false;
      }
    for (int d = 0; d < 3; ++d) view.reqdWorkGroupSize[d] = rec.reqdWorkGroupSize[d];
    view.reqdSubGroupSize = rec.reqdSubGroupSize;
    view.groupLocalBytes = rec.groupLocalBytes;
    view.deviceHas = rec.deviceHas != 0;
    view.requiredAspects = rec.requiredAspects;
    std::string_view keys;
    if (!readString(rec.specKeys, keys) || keys.size() % sizeof(uint64_t) != 0) {
      error = "kernel image: kernel '" + std::string(view.symbol) + "' has an invalid specialization-constant list";
      return false;
    }
    view.specKeysKnown = header_.formatVersion >= 3;
    view.specKeys.resize(keys.size() / sizeof(uint64_t));
    if (!keys.empty()) std::memcpy(view.specKeys.data(), keys.data(), keys.size());
    if (rec.requiredAspects >> kAspectCount) {
      error = "kernel image: kernel '" + std::string(view.symbol) + "' requires an aspect this OnePass does not know";
      return false;
    }
    for (uint32_t f = 0; f < rec.fieldCount; ++f) {
      FieldRecord field;
      std::memcpy(&field, base_ + header_.fieldTableOffset + (rec.firstField + f) * sizeof(FieldRecord), sizeof(field));
      if (field.kind > static_cast<uint32_t>(FieldKind::Pointer) ||
          !inBounds(field.offset, field.size, rec.objectSize) || field.size == 0) {
        error = "kernel image: kernel '" + std::string(view.symbol) + "' has an invalid field " + std::to_string(f);
        return false;
      }
      view.fields.push_back(FieldView{field.offset, field.size, static_cast<FieldKind>(field.kind), field.flags});
    }
    kernels_.push_back(std::move(view));
  }
  return true;
}

const KernelView *ImageView::findKernel(std::string_view symbol) const {
  for (const KernelView &k : kernels_)
    if (k.symbol == symbol) return &k;
  return nullptr;
}

bool splitImageSection(const void *data, size_t size, std::vector<ImageView> &images, std::string &error) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  size_t offset = 0;
  while (offset < size) {
    // The linker may insert zero padding between images to honour alignment.
    if (bytes[offset] == 0) {
      ++offset;
      continue;
    }
    ImageView view;
    if (!view.parse(bytes + offset, size - offset, /*verifyHash=*/true, error)) {
      error = "at offset " + std::to_string(offset) + " of section " + kSectionName + ": " + error;
      return false;
    }
    offset += view.totalSize();
    images.push_back(std::move(view));
  }
  return true;
}

const char *toString(FieldKind kind) {
  switch (kind) {
  case FieldKind::Integer: return "int";
  case FieldKind::Float: return "float";
  case FieldKind::Pointer: return "pointer";
  }
  return "?";
}

const char *toString(KernelKind kind) {
  switch (kind) {
  case KernelKind::SingleTask: return "single_task";
  case KernelKind::ParallelFor: return "parallel_for";
  case KernelKind::NdRange: return "nd_range";
  }
  return "?";
}

}  // namespace onepass::image
