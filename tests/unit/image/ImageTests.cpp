// Unit tests of the kernel image format (common/image): what the writer
// produces reads back unchanged, and every kind of damage the reader promises
// to catch is reported as an error with a message naming it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "KernelImage.h"

#include <zstd.h>

#include <cstring>
#include <string>
#include <vector>

using namespace onepass::image;

namespace {

std::vector<KernelDesc> sampleKernels() {
  KernelDesc fill;
  fill.symbol = "_ZTS4Fill";
  fill.displayName = "Fill";
  fill.sourceFile = "/src/fill.cpp";
  fill.line = 12;
  fill.column = 7;
  fill.kind = KernelKind::ParallelFor;
  fill.dimensions = 2;
  fill.objectSize = 24;
  fill.objectAlign = 8;
  fill.features = kFeatureFp64;
  fill.reqdWorkGroupSize[0] = 4;
  fill.reqdWorkGroupSize[1] = 16;
  fill.reqdSubGroupSize = 32;
  fill.fields = {
      {0, 8, FieldKind::Pointer}, {8, 4, FieldKind::Float}, {16, 8, FieldKind::Integer, kFieldLaunchConstant}};

  KernelDesc task;
  task.symbol = "_ZTSZ4mainEUlvE_";
  task.displayName = "lambda at main.cpp:30:5";
  task.sourceFile = "main.cpp";
  task.line = 30;
  task.column = 5;
  task.kind = KernelKind::SingleTask;
  task.objectSize = 4;
  task.objectAlign = 4;
  task.fields = {{0, 4, FieldKind::Integer}};
  return {fill, task};
}

const std::string kBitcode = "BC\xc0\xde this stands in for a module's bitcode";

std::vector<uint8_t> sampleImage() {
  return writeImage(sampleKernels(), kBitcode.data(), kBitcode.size(), false, kBitcode.size());
}

ImageHeader headerOf(const std::vector<uint8_t> &image) {
  ImageHeader header;
  std::memcpy(&header, image.data(), sizeof(header));
  return header;
}

void setHeader(std::vector<uint8_t> &image, const ImageHeader &header) {
  std::memcpy(image.data(), &header, sizeof(header));
}

// After a deliberate change to the body, makes the content hash match again,
// so a test sees the check it is about and not the hash check.
void rehash(std::vector<uint8_t> &image) {
  ImageHeader header = headerOf(image);
  header.contentHash = hashBytes(image.data() + sizeof(ImageHeader), image.size() - sizeof(ImageHeader));
  setHeader(image, header);
}

KernelRecord kernelRecordOf(const std::vector<uint8_t> &image, size_t index) {
  KernelRecord record;
  std::memcpy(&record, image.data() + headerOf(image).kernelTableOffset + index * sizeof(record), sizeof(record));
  return record;
}

void setKernelRecord(std::vector<uint8_t> &image, size_t index, const KernelRecord &record) {
  std::memcpy(image.data() + headerOf(image).kernelTableOffset + index * sizeof(record), &record, sizeof(record));
}

// Parses `image` expecting failure; returns the error message.
std::string parseError(const std::vector<uint8_t> &image, bool verifyHash = true) {
  ImageView view;
  std::string error;
  CHECK_FALSE(view.parse(image.data(), image.size(), verifyHash, error));
  CHECK_FALSE(error.empty());
  return error;
}

std::vector<uint8_t> zstdCompress(const std::string &data) {
  std::vector<uint8_t> out(ZSTD_compressBound(data.size()));
  size_t size = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(size));
  out.resize(size);
  return out;
}

}  // namespace

TEST_CASE("an image reads back exactly what was written", "[image]") {
  const std::vector<uint8_t> image = sampleImage();
  REQUIRE(image.size() % 8 == 0);

  ImageView view;
  std::string error;
  REQUIRE(view.parse(image.data(), image.size(), /*verifyHash=*/true, error));
  CHECK(error.empty());
  CHECK(view.totalSize() == image.size());
  CHECK_FALSE(view.bitcodeCompressed());
  CHECK(view.bitcodeSize() == kBitcode.size());
  CHECK(view.bitcodeRawSize() == kBitcode.size());
  CHECK(std::string(reinterpret_cast<const char *>(view.bitcode()), view.bitcodeSize()) == kBitcode);

  REQUIRE(view.kernels().size() == 2);
  const KernelView &fill = view.kernels()[0];
  CHECK(fill.symbol == "_ZTS4Fill");
  CHECK(fill.displayName == "Fill");
  CHECK(fill.sourceFile == "/src/fill.cpp");
  CHECK(fill.line == 12);
  CHECK(fill.column == 7);
  CHECK(fill.kind == KernelKind::ParallelFor);
  CHECK(fill.dimensions == 2);
  CHECK(fill.objectSize == 24);
  CHECK(fill.objectAlign == 8);
  CHECK(fill.features == kFeatureFp64);
  CHECK(fill.reqdWorkGroupSize[0] == 4);
  CHECK(fill.reqdWorkGroupSize[1] == 16);
  CHECK(fill.reqdWorkGroupSize[2] == 0);
  CHECK(fill.reqdSubGroupSize == 32);
  REQUIRE(fill.fields.size() == 3);
  CHECK(fill.fields[0].offset == 0);
  CHECK(fill.fields[0].size == 8);
  CHECK(fill.fields[0].kind == FieldKind::Pointer);
  CHECK(fill.fields[1].offset == 8);
  CHECK(fill.fields[1].size == 4);
  CHECK(fill.fields[1].kind == FieldKind::Float);
  CHECK(fill.fields[2].offset == 16);
  CHECK(fill.fields[2].kind == FieldKind::Integer);
  CHECK(fill.fields[2].flags == kFieldLaunchConstant);  // a launch constant stays one
  CHECK(fill.fields[1].flags == 0);

  const KernelView &task = view.kernels()[1];
  CHECK(task.symbol == "_ZTSZ4mainEUlvE_");
  CHECK(task.displayName == "lambda at main.cpp:30:5");
  CHECK(task.kind == KernelKind::SingleTask);
  CHECK(task.dimensions == 0);
  CHECK(task.reqdWorkGroupSize[0] == 0);
  CHECK(task.reqdSubGroupSize == 0);
  REQUIRE(task.fields.size() == 1);
  CHECK(task.fields[0].size == 4);

  CHECK(view.findKernel("_ZTSZ4mainEUlvE_") == &task);
  CHECK(view.findKernel("Fill") == nullptr);  // findKernel looks up symbols only
}

TEST_CASE("an image without kernels or bitcode is valid", "[image]") {
  const std::vector<uint8_t> image = writeImage({}, nullptr, 0, false, 0);
  ImageView view;
  std::string error;
  REQUIRE(view.parse(image.data(), image.size(), true, error));
  CHECK(view.kernels().empty());
  CHECK(view.bitcodeSize() == 0);
}

TEST_CASE("ids print as 16 lowercase hex digits, zero-padded", "[image]") {
  CHECK(onepass::image::hexId(0) == "0000000000000000");
  CHECK(onepass::image::hexId(0xabcULL) == "0000000000000abc");
  CHECK(onepass::image::hexId(0xfedcba9876543210ULL) == "fedcba9876543210");
}

TEST_CASE("the image id depends on the content only", "[image]") {
  const std::vector<uint8_t> first = sampleImage();
  const std::vector<uint8_t> second = sampleImage();
  CHECK(headerOf(first).imageId == headerOf(second).imageId);

  const std::string otherBitcode = kBitcode + "!";
  const std::vector<uint8_t> other = writeImage(sampleKernels(), otherBitcode.data(), otherBitcode.size(), false, 0);
  CHECK(headerOf(other).imageId != headerOf(first).imageId);
}

TEST_CASE("the content hash detects a flipped byte", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  image[image.size() - 9] ^= 0x01;  // inside the bitcode or its padding

  CHECK_THAT(parseError(image), Catch::Contains("hash"));
  // Registration skips the hash check, so the same image parses without it.
  ImageView view;
  std::string error;
  CHECK(view.parse(image.data(), image.size(), /*verifyHash=*/false, error));
}

TEST_CASE("a truncated image is an error", "[image]") {
  const std::vector<uint8_t> image = sampleImage();
  SECTION("shorter than its header") {
    ImageView view;
    std::string error;
    CHECK_FALSE(view.parse(image.data(), sizeof(ImageHeader) - 1, true, error));
    CHECK_THAT(error, Catch::Contains("truncated"));
  }
  SECTION("shorter than its declared size") {
    ImageView view;
    std::string error;
    CHECK_FALSE(view.parse(image.data(), image.size() - 8, true, error));
    CHECK_THAT(error, Catch::Contains("declares size"));
  }
  SECTION("every shorter length fails") {
    for (size_t length = 0; length < image.size(); ++length) {
      ImageView view;
      std::string error;
      CHECK_FALSE(view.parse(image.data(), length, false, error));
    }
  }
}

TEST_CASE("a bad magic number is an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  image[0] = 'X';
  CHECK_THAT(parseError(image), Catch::Contains("magic"));
}

TEST_CASE("a different format version is an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  ImageHeader header = headerOf(image);
  header.formatVersion = kFormatVersion + 1;
  setHeader(image, header);
  const std::string error = parseError(image);
  CHECK_THAT(error, Catch::Contains("version " + std::to_string(kFormatVersion + 1)));
}

TEST_CASE("a declared size that is not a multiple of 8 is an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  ImageHeader header = headerOf(image);
  header.totalSize -= 4;
  setHeader(image, header);
  CHECK_THAT(parseError(image), Catch::Contains("declares size"));
}

TEST_CASE("tables outside the image are errors", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  ImageHeader header = headerOf(image);
  SECTION("kernel table") { header.kernelTableOffset = static_cast<uint32_t>(image.size()); }
  SECTION("kernel count") { header.kernelCount = 0x10000000; }
  SECTION("field table") { header.fieldTableOffset = static_cast<uint32_t>(image.size() - 8); }
  SECTION("string table") { header.stringTableSize = 0xffffffffu; }
  SECTION("bitcode offset") { header.bitcodeOffset = ~uint64_t(0) - 4; }
  SECTION("bitcode size overflowing") { header.bitcodeSize = ~uint64_t(0); }
  setHeader(image, header);
  CHECK_THAT(parseError(image), Catch::Contains("outside its bounds"));
}

TEST_CASE("misaligned tables are an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  ImageHeader header = headerOf(image);
  header.fieldTableOffset += 2;
  setHeader(image, header);
  CHECK_THAT(parseError(image), Catch::Contains("misaligned"));
}

TEST_CASE("a field outside the kernel object is an error", "[image]") {
  std::vector<KernelDesc> kernels = sampleKernels();
  SECTION("past the end") { kernels[0].fields[2].offset = 20; }  // 20 + 8 > 24
  SECTION("huge offset") { kernels[0].fields[2].offset = 0xfffffffcu; }
  SECTION("empty field") { kernels[0].fields[2].size = 0; }
  const std::vector<uint8_t> image = writeImage(kernels, kBitcode.data(), kBitcode.size(), false, 0);
  const std::string error = parseError(image);
  CHECK_THAT(error, Catch::Contains("_ZTS4Fill") && Catch::Contains("invalid field 2"));
}

TEST_CASE("a field of an unknown kind is an error", "[image]") {
  std::vector<KernelDesc> kernels = sampleKernels();
  kernels[1].fields[0].kind = static_cast<FieldKind>(7);
  const std::vector<uint8_t> image = writeImage(kernels, kBitcode.data(), kBitcode.size(), false, 0);
  CHECK_THAT(parseError(image), Catch::Contains("invalid field 0"));
}

TEST_CASE("a kernel whose fields leave the field table is an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  KernelRecord record = kernelRecordOf(image, 1);
  record.fieldCount = 5;
  setKernelRecord(image, 1, record);
  rehash(image);
  CHECK_THAT(parseError(image), Catch::Contains("fields outside the table"));
}

TEST_CASE("an invalid kernel kind or dimension count is an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  KernelRecord record = kernelRecordOf(image, 0);
  SECTION("kind") { record.kind = 9; }
  SECTION("dimensions") { record.dimensions = 4; }
  setKernelRecord(image, 0, record);
  rehash(image);
  CHECK_THAT(parseError(image), Catch::Contains("invalid kind"));
}

TEST_CASE("a required work-group size that does not fit the dimensions is an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  KernelRecord record = kernelRecordOf(image, 0);  // 2-dimensional, requires 4 x 16
  SECTION("a dimension missing") { record.reqdWorkGroupSize[1] = 0; }
  SECTION("a dimension too many") { record.reqdWorkGroupSize[2] = 2; }
  setKernelRecord(image, 0, record);
  rehash(image);
  CHECK_THAT(parseError(image), Catch::Contains("invalid required work-group size"));
}

TEST_CASE("a string outside the string table is an error", "[image]") {
  std::vector<uint8_t> image = sampleImage();
  const uint32_t tableSize = headerOf(image).stringTableSize;
  KernelRecord record = kernelRecordOf(image, 1);
  SECTION("offset past the end") { record.displayName.offset = tableSize + 1; }
  SECTION("size past the end") { record.sourceFile.size = tableSize; }
  SECTION("offset plus size overflowing") {
    record.symbol.offset = 8;
    record.symbol.size = 0xfffffffcu;
  }
  setKernelRecord(image, 1, record);
  rehash(image);
  CHECK_THAT(parseError(image), Catch::Contains("kernel 1") && Catch::Contains("string table"));
}

TEST_CASE("a section of two images with zero padding splits into both", "[image][section]") {
  const std::vector<uint8_t> first = sampleImage();
  std::vector<KernelDesc> kernels = sampleKernels();
  kernels.resize(1);
  kernels[0].symbol = "_ZTS5Other";
  const std::vector<uint8_t> second = writeImage(kernels, "xyz", 3, false, 0);

  std::vector<uint8_t> section(8, 0);  // the linker may pad before the first image too
  section.insert(section.end(), first.begin(), first.end());
  section.insert(section.end(), 24, 0);
  section.insert(section.end(), second.begin(), second.end());
  section.insert(section.end(), 8, 0);

  std::vector<ImageView> images;
  std::string error;
  REQUIRE(splitImageSection(section.data(), section.size(), images, error));
  REQUIRE(images.size() == 2);
  CHECK(images[0].kernels().size() == 2);
  CHECK(images[0].data() == section.data() + 8);
  REQUIRE(images[1].kernels().size() == 1);
  CHECK(images[1].kernels()[0].symbol == "_ZTS5Other");
  CHECK(images[1].bitcodeSize() == 3);
  CHECK(images[1].imageId() != images[0].imageId());
}

TEST_CASE("an empty or all-zero section holds no images", "[image][section]") {
  const std::vector<uint8_t> zeros(64, 0);
  std::vector<ImageView> images;
  std::string error;
  CHECK(splitImageSection(zeros.data(), zeros.size(), images, error));
  CHECK(splitImageSection(zeros.data(), 0, images, error));
  CHECK(images.empty());
}

TEST_CASE("a damaged image in a section is reported with its offset", "[image][section]") {
  const std::vector<uint8_t> image = sampleImage();
  std::vector<uint8_t> section = image;
  section.insert(section.end(), 8, 0);
  section.insert(section.end(), image.begin(), image.end());
  section[image.size() + 8 + 100] ^= 0x40;  // inside the second image's body

  std::vector<ImageView> images;
  std::string error;
  CHECK_FALSE(splitImageSection(section.data(), section.size(), images, error));
  CHECK_THAT(error, Catch::Contains("at offset " + std::to_string(image.size() + 8)) && Catch::Contains(kSectionName) &&
                        Catch::Contains("hash"));
}

TEST_CASE("garbage after the images in a section is an error", "[image][section]") {
  std::vector<uint8_t> section = sampleImage();
  section.insert(section.end(), {0, 0, 'j', 'u', 'n', 'k', 0, 0});
  std::vector<ImageView> images;
  std::string error;
  CHECK_FALSE(splitImageSection(section.data(), section.size(), images, error));
  CHECK_FALSE(error.empty());
}

TEST_CASE("uncompressed bitcode is extracted as stored", "[image][bitcode]") {
  const std::vector<uint8_t> image = sampleImage();
  ImageView view;
  std::string error;
  REQUIRE(view.parse(image.data(), image.size(), true, error));
  std::vector<uint8_t> bitcode;
  REQUIRE(extractBitcode(view, bitcode, error));
  CHECK(std::string(bitcode.begin(), bitcode.end()) == kBitcode);
}

TEST_CASE("zstd-compressed bitcode is decompressed", "[image][bitcode]") {
  std::string raw;
  for (int i = 0; i < 1000; ++i) raw += "define void @kernel" + std::to_string(i) + "() {}\n";
  const std::vector<uint8_t> compressed = zstdCompress(raw);
  REQUIRE(compressed.size() < raw.size());

  const std::vector<uint8_t> image =
      writeImage(sampleKernels(), compressed.data(), compressed.size(), true, raw.size());
  ImageView view;
  std::string error;
  REQUIRE(view.parse(image.data(), image.size(), true, error));
  CHECK(view.bitcodeCompressed());
  CHECK(view.bitcodeSize() == compressed.size());
  CHECK(view.bitcodeRawSize() == raw.size());

  std::vector<uint8_t> bitcode;
  REQUIRE(extractBitcode(view, bitcode, error));
  CHECK(std::string(bitcode.begin(), bitcode.end()) == raw);
}

TEST_CASE("corrupt compressed bitcode is an error, not a crash", "[image][bitcode]") {
  const std::string raw(4096, 'k');
  std::vector<uint8_t> compressed = zstdCompress(raw);
  size_t rawSize = raw.size();
  // A size the image and its frame disagree on is refused before anything
  // is allocated for it (the fuzzer's 1.9 GB from a 500-byte image).
  std::string expected = "is not a zstd frame of the declared";

  SECTION("damaged frame header") { compressed[0] ^= 0xff; }
  SECTION("truncated frame") {
    compressed.resize(compressed.size() / 2);
    expected = "does not decompress";
  }
  SECTION("declared raw size too small") { rawSize = 100; }
  SECTION("declared raw size too large") { rawSize = raw.size() + 10; }
  SECTION("declared raw size huge") { rawSize = size_t(1) << 40; }
  SECTION("a frame that decompresses a thousandfold and more (no bitcode does)") {
    compressed = zstdCompress(std::string(size_t(8) << 20, '\0'));
    rawSize = size_t(8) << 20;
    expected = "implausible";
  }

  const std::vector<uint8_t> image = writeImage(sampleKernels(), compressed.data(), compressed.size(), true, rawSize);
  ImageView view;
  std::string error;
  REQUIRE(view.parse(image.data(), image.size(), true, error));
  std::vector<uint8_t> bitcode;
  CHECK_FALSE(extractBitcode(view, bitcode, error));
  CHECK_THAT(error, Catch::Contains(expected));
}

TEST_CASE("kinds have printable names", "[image]") {
  CHECK(std::string(toString(FieldKind::Integer)) == "int");
  CHECK(std::string(toString(FieldKind::Float)) == "float");
  CHECK(std::string(toString(FieldKind::Pointer)) == "pointer");
  CHECK(std::string(toString(KernelKind::SingleTask)) == "single_task");
  CHECK(std::string(toString(KernelKind::ParallelFor)) == "parallel_for");
}
