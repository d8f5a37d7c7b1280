#include "ElfSections.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <sys/stat.h>

namespace onepass::tools {

namespace {

// ELF64 constants and field offsets (System V ABI, "ELF Header" and
// "Section Header"). Fields are decoded byte by byte, so the reader works
// the same on any host and never reads unaligned.
constexpr size_t kElfHeaderSize = 64;
constexpr size_t kSectionHeaderSize = 64;
constexpr uint8_t kElfClass64 = 2;
constexpr uint8_t kElfDataLittleEndian = 1;
constexpr uint16_t kSectionIndexUndefined = 0;      // SHN_UNDEF
constexpr uint16_t kSectionIndexExtended = 0xffff;  // SHN_XINDEX
constexpr uint32_t kSectionTypeNoBits = 8;          // SHT_NOBITS
constexpr uint64_t kSectionFlagCompressed = 0x800;  // SHF_COMPRESSED

template <typename T> T readLittleEndian(const uint8_t *bytes) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(bytes[i]) << (8 * i);
  return value;
}

bool inBounds(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

struct SectionHeader {
  uint32_t name;
  uint32_t type;
  uint64_t flags;
  uint64_t offset;
  uint64_t size;
  uint32_t link;
};

// The validated section header table of one file.
class SectionTable {
public:
  SectionTable(const uint8_t *file, size_t fileSize) : file_(file), fileSize_(fileSize) {}

  bool read(std::string &error);
  uint64_t count() const { return count_; }
  uint64_t nameTableIndex() const { return nameTableIndex_; }
  SectionHeader header(uint64_t index) const;

private:
  const uint8_t *file_;
  size_t fileSize_;
  uint64_t tableOffset_ = 0;
  uint64_t entrySize_ = 0;
  uint64_t count_ = 0;
  uint64_t nameTableIndex_ = 0;
};

bool SectionTable::read(std::string &error) {
  tableOffset_ = readLittleEndian<uint64_t>(file_ + 40);     // e_shoff
  entrySize_ = readLittleEndian<uint16_t>(file_ + 58);       // e_shentsize
  count_ = readLittleEndian<uint16_t>(file_ + 60);           // e_shnum
  nameTableIndex_ = readLittleEndian<uint16_t>(file_ + 62);  // e_shstrndx
  if (tableOffset_ == 0) {                                   // no section table at all (e.g. sstrip'ed)
    count_ = 0;
    return true;
  }
  if (entrySize_ < kSectionHeaderSize) {
    error = "corrupt ELF file: section header size " + std::to_string(entrySize_) + " is smaller than " +
            std::to_string(kSectionHeaderSize);
    return false;
  }
  if (!inBounds(tableOffset_, entrySize_, fileSize_)) {
    error = "corrupt ELF file: the section header table lies outside the file";
    return false;
  }
  // Files with 0xff00 sections or more keep the real count and name table
  // index in section 0 (ELF "extended section numbering").
  const SectionHeader first = header(0);
  if (count_ == 0) count_ = first.size;
  if (nameTableIndex_ == kSectionIndexExtended) nameTableIndex_ = first.link;
  if (count_ > (fileSize_ - tableOffset_) / entrySize_) {
    error = "corrupt ELF file: the section header table lies outside the file";
    return false;
  }
  return true;
}

SectionHeader SectionTable::header(uint64_t index) const {
  const uint8_t *entry = file_ + tableOffset_ + index * entrySize_;
  SectionHeader h;
  h.name = readLittleEndian<uint32_t>(entry + 0);
  h.type = readLittleEndian<uint32_t>(entry + 4);
  h.flags = readLittleEndian<uint64_t>(entry + 8);
  h.offset = readLittleEndian<uint64_t>(entry + 24);
  h.size = readLittleEndian<uint64_t>(entry + 32);
  h.link = readLittleEndian<uint32_t>(entry + 40);
  return h;
}

bool checkFileHeader(const uint8_t *data, size_t size, std::string &error) {
  if (!hasElfMagic(data, size)) {
    error = "not an ELF file";
    return false;
  }
  if (size < kElfHeaderSize) {
    error = "corrupt ELF file: truncated ELF header";
    return false;
  }
  if (data[4] != kElfClass64 || data[5] != kElfDataLittleEndian) {
    error = "unsupported ELF file: only 64-bit little-endian ELF is supported";
    return false;
  }
  return true;
}

}  // namespace

bool readFileBytes(const std::string &path, std::vector<uint8_t> &bytes, std::string &error) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (S_ISDIR(info.st_mode)) {
    error = "is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return false;
  }
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    error = "read error";
    return false;
  }
  return true;
}

bool hasElfMagic(const uint8_t *data, size_t size) {
  return size >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F';
}

bool findElfSection(const uint8_t *data, size_t size, std::string_view name, SectionContents &out, std::string &error) {
  out = SectionContents{};
  if (!checkFileHeader(data, size, error)) return false;

  SectionTable table(data, size);
  if (!table.read(error)) return false;
  if (table.count() == 0 || table.nameTableIndex() == kSectionIndexUndefined) return true;
  if (table.nameTableIndex() >= table.count()) {
    error =
        "corrupt ELF file: the section name table index " + std::to_string(table.nameTableIndex()) + " is out of range";
    return false;
  }
  const SectionHeader names = table.header(table.nameTableIndex());
  if (names.type == kSectionTypeNoBits || !inBounds(names.offset, names.size, size)) {
    error = "corrupt ELF file: the section name table lies outside the file";
    return false;
  }
  const char *nameTable = reinterpret_cast<const char *>(data + names.offset);

  for (uint64_t i = 0; i < table.count(); ++i) {
    const SectionHeader section = table.header(i);
    if (section.name >= names.size) {
      error = "corrupt ELF file: section " + std::to_string(i) + " has a name outside the section name table";
      return false;
    }
    // The name must end inside the table, or comparing it would run past it.
    const char *sectionName = nameTable + section.name;
    const void *end = std::memchr(sectionName, '\0', names.size - section.name);
    if (!end) {
      error = "corrupt ELF file: section " + std::to_string(i) + " has an unterminated name";
      return false;
    }
    if (std::string_view(sectionName, static_cast<const char *>(end) - sectionName) != name) continue;

    if (section.type == kSectionTypeNoBits) return true;  // no contents in the file
    if (section.flags & kSectionFlagCompressed) {
      error = "section " + std::string(name) + " is compressed, which is not supported";
      return false;
    }
    if (!inBounds(section.offset, section.size, size)) {
      error = "corrupt ELF file: section " + std::string(name) + " lies outside the file";
      return false;
    }
    out.found = true;
    out.data = data + section.offset;
    out.size = section.size;
    return true;
  }
  return true;
}

}  // namespace onepass::tools
