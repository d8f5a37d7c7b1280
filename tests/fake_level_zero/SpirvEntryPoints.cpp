// A minimal SPIR-V reader (SPIR-V 1.x, §2.3 "Physical Layout"): the header's
// five words, then instructions whose first word holds the word count (high
// half) and the opcode (low half). Types are sized as OpenCL sizes kernel
// arguments: pointers 8 bytes (Physical64), 3-element vectors as 4.
#include "SpirvEntryPoints.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace fake_level_zero {

namespace {

constexpr uint32_t kMagic = 0x07230203u;
enum Opcode : uint32_t {
  OpEntryPoint = 15,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeArray = 28,
  OpTypeStruct = 30,
  OpTypePointer = 32,
  OpConstant = 43,
  OpFunction = 54,
  OpFunctionParameter = 55,
};
constexpr uint32_t kStorageClassWorkgroup = 4;

struct Type {
  uint64_t size = 0, align = 1;
  bool localPointer = false;
};

}  // namespace

bool readSpirvKernels(const void *binary, size_t sizeBytes, SpirvKernels &kernels, std::string &why) {
  if (sizeBytes < 20 || sizeBytes % 4) {
    why = "not a SPIR-V module (" + std::to_string(sizeBytes) + " bytes)";
    return false;
  }
  std::vector<uint32_t> words(sizeBytes / 4);
  std::memcpy(words.data(), binary, sizeBytes);
  if (words[0] != kMagic) {
    why = "not a SPIR-V module (bad magic number)";
    return false;
  }
  std::unordered_map<uint32_t, Type> types;
  std::unordered_map<uint32_t, uint64_t> constants;
  std::unordered_map<uint32_t, std::string> entryNames;  // function id -> name
  std::unordered_map<uint32_t, std::vector<KernelParameter>> parameters;
  uint32_t function = 0;  // the function whose parameters follow
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffffu;
    if (count == 0 || at + count > words.size()) {
      why = "malformed SPIR-V: an instruction runs past the end (word " + std::to_string(at) + ")";
      return false;
    }
    const uint32_t *op = &words[at];
    auto typeOf = [&](uint32_t id) { return types.count(id) ? types[id] : Type{}; };
    switch (opcode) {
    case OpEntryPoint:
      if (count >= 4) {
        const char *name = reinterpret_cast<const char *>(op + 3);
        entryNames[op[2]] = std::string(name, strnlen(name, (count - 3) * 4));
      }
      break;
    case OpTypeBool: types[op[1]] = Type{1, 1}; break;
    case OpTypeInt:
    case OpTypeFloat: types[op[1]] = Type{op[2] / 8, op[2] / 8}; break;
    case OpTypeVector: {
      const Type element = typeOf(op[2]);
      const uint64_t lanes = op[3] == 3 ? 4 : op[3];
      types[op[1]] = Type{element.size * lanes, element.size * lanes};
      break;
    }
    case OpTypeArray: {
      const Type element = typeOf(op[2]);
      types[op[1]] = Type{element.size * constants[op[3]], element.align};
      break;
    }
    case OpTypeStruct: {
      Type whole;
      for (uint32_t i = 2; i < count; ++i) {
        const Type member = typeOf(op[i]);
        whole.size = (whole.size + member.align - 1) / member.align * member.align + member.size;
        whole.align = std::max(whole.align, member.align);
      }
      whole.size = (whole.size + whole.align - 1) / whole.align * whole.align;
      types[op[1]] = whole;
      break;
    }
    case OpTypePointer: types[op[1]] = Type{8, 8, op[2] == kStorageClassWorkgroup}; break;
    case OpConstant:
      if (count >= 4) constants[op[2]] = count >= 5 ? (uint64_t(op[4]) << 32 | op[3]) : op[3];
      break;
    case OpFunction:
      function = op[2];
      parameters[function];
      break;
    case OpFunctionParameter: {
      const Type type = typeOf(op[1]);
      if (type.size == 0) {
        why = "the fake driver cannot size the type %" + std::to_string(op[1]) + " of a kernel parameter";
        return false;
      }
      parameters[function].push_back(KernelParameter{type.size, type.localPointer});
      break;
    }
    default: break;
    }
    at += count;
  }
  for (const auto &[id, name] : entryNames) kernels[name] = parameters[id];
  return true;
}

}  // namespace fake_level_zero
