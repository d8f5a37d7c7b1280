// Unit tests of the tools' ELF section reader (tools/ElfSections). The test
// files are ELF64 objects built in memory, so every header field can be
// damaged on purpose; the reader must report each damage as an error and
// never read outside the buffer.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "ElfSections.h"

#include <cstring>
#include <random>
#include <string>
#include <vector>

using onepass::tools::findElfSection;
using onepass::tools::SectionContents;

namespace {

constexpr uint32_t kProgBits = 1;                           // SHT_PROGBITS
constexpr uint32_t kStrTab = 3;                             // SHT_STRTAB
constexpr uint32_t kNoBits = 8;                             // SHT_NOBITS
constexpr size_t kShOff = 40, kShNum = 60, kShStrNdx = 62;  // ELF header fields
constexpr size_t kShName = 0, kShType = 4, kShFlags = 8, kShOffset = 24, kShSize = 32,
                 kShLink = 40;  // section header fields

template <typename T> void put(std::vector<uint8_t> &bytes, size_t offset, T value) {
  for (size_t i = 0; i < sizeof(T); ++i) bytes.at(offset + i) = uint8_t(uint64_t(value) >> (8 * i));
}

template <typename T> T get(const std::vector<uint8_t> &bytes, size_t offset) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) value |= T(bytes.at(offset + i)) << (8 * i);
  return value;
}

// A relocatable x86-64 ELF64 file: header, section contents, then the section
// header table (null section, the added sections, .shstrtab last).
class ElfBuilder {
public:
  void add(const std::string &name, uint32_t type, const std::string &contents) {
    sections_.push_back({name, type, contents});
  }

  std::vector<uint8_t> build() const {
    std::vector<Section> all = sections_;
    std::string names(1, '\0');
    std::vector<uint32_t> nameOffsets;
    for (const Section &s : all) {
      nameOffsets.push_back(uint32_t(names.size()));
      names += s.name + '\0';
    }
    nameOffsets.push_back(uint32_t(names.size()));
    names += std::string(".shstrtab") + '\0';
    all.push_back({".shstrtab", kStrTab, names});

    std::vector<uint8_t> file(64, 0);
    const uint8_t ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    std::memcpy(file.data(), ident, sizeof(ident));
    put<uint16_t>(file, 16, 1);   // e_type: ET_REL
    put<uint16_t>(file, 18, 62);  // e_machine: EM_X86_64
    put<uint32_t>(file, 20, 1);   // e_version
    put<uint16_t>(file, 52, 64);  // e_ehsize
    put<uint16_t>(file, 58, 64);  // e_shentsize

    std::vector<uint64_t> offsets;
    for (const Section &s : all) {
      offsets.push_back(file.size());
      if (s.type != kNoBits) file.insert(file.end(), s.contents.begin(), s.contents.end());
      file.resize((file.size() + 7) & ~size_t(7), 0);
    }
    const uint64_t tableOffset = file.size();
    file.resize(file.size() + 64 * (all.size() + 1), 0);  // entry 0 is the null section
    put<uint64_t>(file, kShOff, tableOffset);
    put<uint16_t>(file, kShNum, uint16_t(all.size() + 1));
    put<uint16_t>(file, kShStrNdx, uint16_t(all.size()));
    for (size_t i = 0; i < all.size(); ++i) {
      const size_t entry = tableOffset + 64 * (i + 1);
      put<uint32_t>(file, entry + kShName, nameOffsets[i]);
      put<uint32_t>(file, entry + kShType, all[i].type);
      put<uint64_t>(file, entry + kShOffset, offsets[i]);
      put<uint64_t>(file, entry + kShSize, all[i].contents.size());
    }
    return file;
  }

private:
  struct Section {
    std::string name;
    uint32_t type;
    std::string contents;
  };
  std::vector<Section> sections_;
};

const std::string kImages = "ONEPASSK and the rest of an image section";

// .text, .onepass.images, .bss: the images are section 2.
std::vector<uint8_t> sampleFile() {
  ElfBuilder builder;
  builder.add(".text", kProgBits, std::string(13, '\x90'));
  builder.add(".onepass.images", kProgBits, kImages);
  builder.add(".bss", kNoBits, std::string(64, '\0'));
  return builder.build();
}

size_t sectionHeader(const std::vector<uint8_t> &file, size_t index) {
  return get<uint64_t>(file, kShOff) + 64 * index;
}

std::string lookupError(const std::vector<uint8_t> &file, const char *name = ".onepass.images") {
  SectionContents section;
  std::string error;
  CHECK_FALSE(findElfSection(file.data(), file.size(), name, section, error));
  CHECK_FALSE(section.found);
  CHECK_FALSE(error.empty());
  return error;
}

}  // namespace

TEST_CASE("a section is found with its exact contents", "[elf]") {
  const std::vector<uint8_t> file = sampleFile();
  SectionContents section;
  std::string error;
  REQUIRE(findElfSection(file.data(), file.size(), ".onepass.images", section, error));
  REQUIRE(section.found);
  CHECK(std::string(reinterpret_cast<const char *>(section.data), section.size) == kImages);
  CHECK(section.data >= file.data());
  CHECK(section.data + section.size <= file.data() + file.size());
}

TEST_CASE("a missing or contentless section is not found, and no error", "[elf]") {
  const std::vector<uint8_t> file = sampleFile();
  SectionContents section;
  std::string error;
  SECTION("missing") {
    CHECK(findElfSection(file.data(), file.size(), ".onepass.other", section, error));
    CHECK_FALSE(section.found);
  }
  SECTION("a prefix of a section name is no match") {
    CHECK(findElfSection(file.data(), file.size(), ".onepass", section, error));
    CHECK_FALSE(section.found);
  }
  SECTION("SHT_NOBITS") {
    CHECK(findElfSection(file.data(), file.size(), ".bss", section, error));
    CHECK_FALSE(section.found);
  }
  SECTION("no section table") {
    std::vector<uint8_t> noTable = file;
    put<uint64_t>(noTable, kShOff, 0);
    CHECK(findElfSection(noTable.data(), noTable.size(), ".onepass.images", section, error));
    CHECK_FALSE(section.found);
  }
  CHECK(error.empty());
}

TEST_CASE("this test's own executable is read without error", "[elf]") {
  std::vector<uint8_t> self;
  std::string error;
  REQUIRE(onepass::tools::readFileBytes("/proc/self/exe", self, error));
  SectionContents section;
  REQUIRE(findElfSection(self.data(), self.size(), ".text", section, error));
  CHECK(section.found);
  CHECK(section.size > 0);
  REQUIRE(findElfSection(self.data(), self.size(), ".onepass.images", section, error));
  CHECK_FALSE(section.found);
}

TEST_CASE("a file that cannot be read gives the reason", "[elf]") {
  std::vector<uint8_t> bytes;
  std::string error;
  CHECK_FALSE(onepass::tools::readFileBytes("/nonexistent/onepass-test", bytes, error));
  CHECK_THAT(error, Catch::Contains("No such file"));
  CHECK_FALSE(onepass::tools::readFileBytes("/", bytes, error));
  CHECK_THAT(error, Catch::Contains("directory"));
}

TEST_CASE("a file that is no ELF file is reported as such", "[elf]") {
  SECTION("text") {
    const std::string text = "int main() { return 0; }\n";
    CHECK(lookupError(std::vector<uint8_t>(text.begin(), text.end())) == "not an ELF file");
  }
  SECTION("empty") { CHECK(lookupError({}) == "not an ELF file"); }
  SECTION("random bytes") {
    std::mt19937 random(42);
    std::vector<uint8_t> garbage(4096);
    for (uint8_t &byte : garbage) byte = uint8_t(random());
    garbage[0] = 0;
    CHECK(lookupError(garbage) == "not an ELF file");
  }
}

TEST_CASE("ELF files other than 64-bit little-endian are refused", "[elf]") {
  std::vector<uint8_t> file = sampleFile();
  SECTION("32-bit") { file[4] = 1; }
  SECTION("big-endian") { file[5] = 2; }
  CHECK_THAT(lookupError(file), Catch::Contains("64-bit little-endian"));
}

TEST_CASE("every truncation of a valid file is an error", "[elf]") {
  const std::vector<uint8_t> file = sampleFile();
  for (size_t length = 0; length < file.size(); ++length) {
    SectionContents section;
    std::string error;
    // A copy of exactly `length` bytes, so a sanitizer sees any overread.
    const std::vector<uint8_t> prefix(file.begin(), file.begin() + length);
    CHECK_FALSE(findElfSection(prefix.data(), prefix.size(), ".onepass.images", section, error));
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE("damaged headers are errors", "[elf]") {
  std::vector<uint8_t> file = sampleFile();
  const size_t images = sectionHeader(file, 2);
  const size_t names = sectionHeader(file, 4);
  const char *lookup = ".onepass.images";
  std::string expected;

  SECTION("section table past the end") {
    put<uint64_t>(file, kShOff, file.size() - 32);
    expected = "section header table lies outside the file";
  }
  SECTION("section table offset overflowing") {
    put<uint64_t>(file, kShOff, ~uint64_t(0) - 8);
    expected = "section header table lies outside the file";
  }
  SECTION("too many sections") {
    put<uint16_t>(file, kShNum, 200);
    expected = "section header table lies outside the file";
  }
  SECTION("section header entries too small") {
    put<uint16_t>(file, 58, 32);
    expected = "section header size";
  }
  SECTION("name table index out of range") {
    put<uint16_t>(file, kShStrNdx, 5);
    expected = "index 5 is out of range";
  }
  SECTION("name table outside the file") {
    put<uint64_t>(file, names + kShOffset, file.size());
    expected = "section name table lies outside the file";
  }
  SECTION("name table size overflowing") {
    put<uint64_t>(file, names + kShSize, ~uint64_t(0));
    expected = "section name table lies outside the file";
  }
  SECTION("name outside the name table") {
    put<uint32_t>(file, sectionHeader(file, 1) + kShName, 5000);
    expected = "section 1 has a name outside";
  }
  SECTION("unterminated name") {
    // Shrink the name table so that its last name loses its NUL.
    put<uint64_t>(file, names + kShSize, get<uint64_t>(file, names + kShSize) - 1);
    lookup = ".missing";  // so the lookup reaches the last section
    expected = "section 4 has an unterminated name";
  }
  SECTION("section contents outside the file") {
    put<uint64_t>(file, images + kShOffset, file.size() - 4);
    expected = "section .onepass.images lies outside the file";
  }
  SECTION("section size overflowing") {
    put<uint64_t>(file, images + kShSize, ~uint64_t(0) - 2);
    expected = "section .onepass.images lies outside the file";
  }
  SECTION("compressed section") {
    put<uint64_t>(file, images + kShFlags, 0x800);
    expected = "compressed";
  }
  CHECK_THAT(lookupError(file, lookup), Catch::Contains(expected));
}

TEST_CASE("extended section numbering is followed", "[elf]") {
  // Files with very many sections store the count in section 0's sh_size and
  // the name table index in its sh_link.
  std::vector<uint8_t> file = sampleFile();
  const size_t first = sectionHeader(file, 0);
  put<uint16_t>(file, kShNum, 0);
  put<uint16_t>(file, kShStrNdx, 0xffff);
  put<uint64_t>(file, first + kShSize, 5);
  put<uint32_t>(file, first + kShLink, 4);

  SectionContents section;
  std::string error;
  REQUIRE(findElfSection(file.data(), file.size(), ".onepass.images", section, error));
  REQUIRE(section.found);
  CHECK(std::string(reinterpret_cast<const char *>(section.data), section.size) == kImages);

  put<uint64_t>(file, first + kShSize, uint64_t(1) << 40);
  CHECK_THAT(lookupError(file), Catch::Contains("section header table lies outside the file"));
}

TEST_CASE("randomly damaged files never make the reader read out of bounds", "[elf]") {
  const std::vector<uint8_t> original = sampleFile();
  std::mt19937 random(1234);
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint8_t> file = original;
    const int flips = 1 + int(random() % 8);
    for (int i = 0; i < flips; ++i) file[random() % file.size()] = uint8_t(random());
    if (random() % 4 == 0) file.resize(random() % file.size());
    SectionContents section;
    std::string error;
    const bool ok = findElfSection(file.data(), file.size(), ".onepass.images", section, error);
    if (ok && section.found) {
      REQUIRE(section.data >= file.data());
      REQUIRE(section.data + section.size <= file.data() + file.size());
    }
    if (!ok) REQUIRE_FALSE(error.empty());
  }
}
