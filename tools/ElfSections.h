// A minimal reader for the section table of ELF64 little-endian files
// (executables, shared libraries and relocatable objects), enough for the
// tools to find the section a binary carries its OnePass kernel images in.
//
// It trusts nothing in the file: every offset, size and count is checked
// against the file size before it is used, so a truncated or garbage file
// gives an error, never a read outside the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace onepass::tools {

// Reads a whole file into `bytes`. On failure returns false and sets `error`
// to the reason (e.g. "no such file or directory").
bool readFileBytes(const std::string &path, std::vector<uint8_t> &bytes, std::string &error);

// True if `data` starts with the ELF magic number (of any class or byte order).
bool hasElfMagic(const uint8_t *data, size_t size);

// Where a section's contents lie in the file buffer.
struct SectionContents {
  bool found = false;  // false: no such section, or it has no file contents
  const uint8_t *data = nullptr;
  size_t size = 0;
};

// Looks up the section named `name` in the ELF file held in [data, data+size).
// Returns false and sets `error` if the file is no ELF64 little-endian file or
// its headers are malformed. A section that is absent or SHT_NOBITS is no
// error: the result then has found == false. `out.data` points into `data`.
bool findElfSection(const uint8_t *data, size_t size, std::string_view name,
                    SectionContents &out, std::string &error);

}  // namespace onepass::tools
