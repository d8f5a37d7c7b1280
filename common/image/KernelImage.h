// The OnePass kernel image: the container stage 1 embeds in every object file
// that has kernels, and that the runtime, the JIT and the tools read back.
//
// Layout (all integers little-endian, every section 8-byte aligned):
//
//   ImageHeader            fixed 96 bytes
//   KernelRecord[kernelCount]
//   FieldRecord[fieldCount]
//   string table           names and file names, not NUL-terminated
//   bitcode                LLVM bitcode, zstd-compressed if kFlagZstd is set
//   zero padding to a multiple of 8 bytes (headerless images concatenate)
//
// The reader checks every offset and size against the container bounds before
// it trusts them: a bad image is an error, never undefined behaviour.
// This library knows nothing of LLVM, SYCL or any backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace onepass::image {

inline constexpr char kMagic[8] = {'O', 'N', 'E', 'P', 'A', 'S', 'S', 'K'};
// 2: KernelRecord grew the required work-group and sub-group sizes and the
//    group local memory bytes.
// 3: KernelRecord grew the aspects of [[sycl::device_has]] and the keys of
//    the specialization constants the kernel reads (version 2 images are read
//    too, without them).
inline constexpr uint32_t kFormatVersion = 3;
// The enumerators of sycl::aspect (include/sycl/info.hpp; the runtime checks):
// bit a of a kernel's required aspects stands for aspect value a.
inline constexpr uint32_t kAspectCount = 19;
inline constexpr uint32_t kAspectFp16 = 6;
inline constexpr uint32_t kAspectFp64 = 7;
inline constexpr uint32_t kAspectAtomic64 = 8;
inline constexpr uint32_t kFlagZstd = 1u << 0;
// The bitcode defines SYCL_EXTERNAL functions (external linkage, their
// mangled names), which kernels of other images may call.
inline constexpr uint32_t kFlagExports = 1u << 1;
// Name of the ELF section that holds the images of a binary.
inline constexpr const char *kSectionName = ".onepass.images";

// NdRange: parallel_for(nd_range), with work-groups.
enum class KernelKind : uint32_t { SingleTask = 0, ParallelFor = 1, NdRange = 2 };

// How a flattened parameter field is passed to the kernel.
enum class FieldKind : uint32_t { Integer = 0, Float = 1, Pointer = 2 };

// What else a field is.
enum FieldFlag : uint32_t {
  // Set up by the command group, not computed by the program (a local
  // accessor's range and its place in local memory): it takes few values, so
  // a JIT may compile the value in (one binary per value).
  kFieldLaunchConstant = 1u << 0,
  // Part of a local_accessor (only an nd_range kernel may capture one).
  kFieldLocalAccessor = 1u << 1,
};

// Features a kernel uses, so a runtime can reject a kernel a device cannot run.
enum KernelFeature : uint32_t {
  kFeatureFp64 = 1u << 0,
  kFeatureBarrier = 1u << 1,       // work-group barriers (__onepass_group_barrier)
  kFeatureLocalMemory = 1u << 2,   // work-group local memory (local accessors)
  kFeatureGroupScratch = 1u << 3,  // the work-group algorithms' scratch memory
  // A hierarchical kernel (parallel_for_work_group): its device work-groups
  // are of one work-item, and reqdWorkGroupSize is its logical work-group's.
  kFeatureHierarchical = 1u << 4,
  // Calls a function its image only declares (a SYCL_EXTERNAL function of
  // another translation unit, or a C library function a target provides).
  kFeatureExternalCalls = 1u << 5,
  kFeatureFp16 = 1u << 6,      // half precision arithmetic, not just half storage (aspect::fp16)
  kFeatureAtomic64 = 1u << 7,  // atomic operations on 64-bit values (aspect::atomic64)
};

struct ImageHeader {
  char magic[8];
  uint32_t formatVersion;
  uint32_t flags;
  uint64_t totalSize;    // whole image including header and tail padding
  uint64_t contentHash;  // hashBytes() over [sizeof(ImageHeader), totalSize)
  uint64_t imageId;      // content-derived id: hash of the bitcode and tables
  uint32_t kernelCount;
  uint32_t fieldCount;
  uint32_t kernelTableOffset;
  uint32_t fieldTableOffset;
  uint32_t stringTableOffset;
  uint32_t stringTableSize;
  uint64_t bitcodeOffset;
  uint64_t bitcodeSize;     // stored size
  uint64_t bitcodeRawSize;  // size after decompression
  uint32_t reserved[2];
};
static_assert(sizeof(ImageHeader) == 96, "ImageHeader layout is part of the format");

struct StringRef32 {
  uint32_t offset;  // into the string table
  uint32_t size;
};

struct KernelRecord {
  StringRef32 symbol;       // function name inside the bitcode
  StringRef32 displayName;  // what users see: the kernel name type or the lambda's location
  StringRef32 sourceFile;
  uint32_t line;
  uint32_t column;
  uint32_t kind;  // KernelKind
  uint32_t dimensions;
  uint32_t firstField;
  uint32_t fieldCount;
  uint32_t objectSize;  // size of the kernel object (the argument blob)
  uint32_t objectAlign;
  uint32_t features;              // KernelFeature bits
  uint32_t reqdSubGroupSize;      // [[sycl::reqd_sub_group_size]], 0 if none
  uint32_t reqdWorkGroupSize[3];  // [[sycl::reqd_work_group_size]] per dimension, all 0 if none
  uint32_t groupLocalBytes;       // local memory the kernel allocates itself (common/ir/GroupLocalMemory.h)
  uint32_t deviceHas;             // 1 if the kernel has [[sycl::device_has]] (format 3)
  uint32_t reserved;
  uint64_t requiredAspects;       // its aspects: bit a for sycl::aspect value a (format 3)
  StringRef32 specKeys;           // the specialization-constant keys it reads, 8 bytes each (format 3)
};
static_assert(sizeof(KernelRecord) == 104, "KernelRecord layout is part of the format");
inline constexpr size_t kKernelRecordSizeV2 = 80;  // a format 2 record: up to groupLocalBytes

struct FieldRecord {
  uint32_t offset;  // inside the kernel object
  uint32_t size;
  uint32_t kind;   // FieldKind
  uint32_t flags;  // FieldFlag bits (0 in images written before they existed)
};
static_assert(sizeof(FieldRecord) == 16, "FieldRecord layout is part of the format");

// 64-bit FNV-1a. Not cryptographic; used for integrity checks and content ids.
uint64_t hashBytes(const void *data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);
// A 64-bit id or hash as 16 lowercase hex digits (cache keys, file names).
std::string hexId(uint64_t value);

// ---------------------------------------------------------------------------
// Writing (stage 1)

struct FieldDesc {
  uint32_t offset = 0;
  uint32_t size = 0;
  FieldKind kind = FieldKind::Integer;
  uint32_t flags = 0;  // FieldFlag
};

struct KernelDesc {
  std::string symbol;
  std::string displayName;
  std::string sourceFile;
  uint32_t line = 0;
  uint32_t column = 0;
  KernelKind kind = KernelKind::SingleTask;
  uint32_t dimensions = 0;
  uint32_t objectSize = 0;
  uint32_t objectAlign = 1;
  uint32_t features = 0;
  // SYCL 2020 §5.8.1 kernel attributes: 0 where the kernel has none.
  uint32_t reqdWorkGroupSize[3] = {0, 0, 0};  // dimensions entries, the rest 0
  uint32_t reqdSubGroupSize = 0;
  uint32_t groupLocalBytes = 0;  // per work-group, besides its local accessors'
  // [[sycl::device_has(...)]]: whether written, and its aspects (bit a for
  // sycl::aspect value a).
  bool deviceHas = false;
  uint64_t requiredAspects = 0;
  // The keys of the specialization constants the kernel reads (sorted).
  std::vector<uint64_t> specKeys;
  std::vector<FieldDesc> fields;
};

// Builds a complete image. `bitcode` is stored as given; if `compressed` is true
// the caller already compressed it with zstd and `rawSize` is its original size.
// `exports`: sets kFlagExports.
std::vector<uint8_t> writeImage(const std::vector<KernelDesc> &kernels, const void *bitcode, size_t bitcodeSize,
                                bool compressed, size_t rawSize, bool exports = false);

// ---------------------------------------------------------------------------
// Reading (runtime, JIT, tools)

struct FieldView {
  uint32_t offset;
  uint32_t size;
  FieldKind kind;
  uint32_t flags = 0;  // FieldFlag
};

struct KernelView {
  std::string_view symbol;
  std::string_view displayName;
  std::string_view sourceFile;
  uint32_t line;
  uint32_t column;
  KernelKind kind;
  uint32_t dimensions;
  uint32_t objectSize;
  uint32_t objectAlign;
  uint32_t features;
  uint32_t reqdWorkGroupSize[3];  // see KernelDesc
  uint32_t reqdSubGroupSize;
  uint32_t groupLocalBytes;  // see KernelDesc
  bool deviceHas;            // see KernelDesc
  uint64_t requiredAspects;
  std::vector<uint64_t> specKeys;  // see KernelDesc
  bool specKeysKnown;              // false for format 2 images (no list)
  std::vector<FieldView> fields;
};

// A validated, non-owning view of one image.
class ImageView {
public:
  // Parses the image that starts at `data`; at most `available` bytes may be
  // read. On failure returns false and sets `error` to a sentence naming the
  // problem. `verifyHash` also checks the content hash (costs a pass over the
  // image; the JIT does it, registration does not need to).
  bool parse(const void *data, size_t available, bool verifyHash, std::string &error);

  uint64_t imageId() const { return header_.imageId; }
  uint64_t totalSize() const { return header_.totalSize; }
  bool bitcodeCompressed() const { return (header_.flags & kFlagZstd) != 0; }
  bool exportsFunctions() const { return (header_.flags & kFlagExports) != 0; }
  const uint8_t *bitcode() const { return base_ + header_.bitcodeOffset; }
  uint64_t bitcodeSize() const { return header_.bitcodeSize; }
  uint64_t bitcodeRawSize() const { return header_.bitcodeRawSize; }
  const std::vector<KernelView> &kernels() const { return kernels_; }
  const uint8_t *data() const { return base_; }

  // Returns the kernel whose symbol is `symbol`, or nullptr.
  const KernelView *findKernel(std::string_view symbol) const;

private:
  const uint8_t *base_ = nullptr;
  ImageHeader header_{};
  std::vector<KernelView> kernels_;
};

// Splits the contents of a `.onepass.images` section (images concatenated by
// the linker, each padded to 8 bytes, possibly with zero padding between them)
// into images. Returns false and sets `error` if any image is malformed.
bool splitImageSection(const void *data, size_t size, std::vector<ImageView> &images, std::string &error);

// Returns the uncompressed bitcode of `image` (decompressing if needed).
bool extractBitcode(const ImageView &image, std::vector<uint8_t> &out, std::string &error);

const char *toString(FieldKind kind);
const char *toString(KernelKind kind);

}  // namespace onepass::image
