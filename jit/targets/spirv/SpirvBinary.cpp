#include "SpirvBinary.h"

#include <cstdint>
#include <cstring>
#include <map>

using namespace llvm;

namespace onepass::jit::spirv {

namespace {

// Opcodes (SPIR-V 1.6 §3.52).
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kOpName = 5;
constexpr uint32_t kOpTypeBool = 20;
constexpr uint32_t kOpTypeInt = 21;
constexpr uint32_t kOpTypeFloat = 22;
constexpr uint32_t kOpConstantFalse = 41;
constexpr uint32_t kOpConstant = 43;
constexpr uint32_t kOpConstantNull = 46;
constexpr uint32_t kOpFunction = 54;
constexpr uint32_t kOpPhi = 245;
constexpr uint32_t kOpLoopMerge = 246;
constexpr uint32_t kOpSelectionMerge = 247;
constexpr uint32_t kOpLabel = 248;
constexpr uint32_t kOpBranch = 249;
constexpr uint32_t kOpBranchConditional = 250;
constexpr uint32_t kOpSwitch = 251;
constexpr size_t kHeaderWords = 5;

Error malformed(const std::string &what) {
  return createStringError(inconvertibleErrorCode(),
                           "internal error: the SPIR-V backend emitted a malformed module (" + what + ")");
}

// The binary's words, after checking its magic number and size.
Error toWords(const std::vector<char> &binary, std::vector<uint32_t> &words) {
  if (binary.size() % 4 != 0 || binary.size() < kHeaderWords * 4) return malformed("size");
  words.resize(binary.size() / 4);
  std::memcpy(words.data(), binary.data(), binary.size());
  if (words[0] != kMagic) return malformed("magic number");
  return Error::success();
}

void fromWords(const std::vector<uint32_t> &words, std::vector<char> &binary) {
  binary.resize(words.size() * 4);
  std::memcpy(binary.data(), words.data(), binary.size());
}

}  // namespace

Error spellOutScalarNulls(std::vector<char> &binary) {
  std::vector<uint32_t> words;
  if (Error err = toWords(binary, words)) return err;
  std::map<uint32_t, uint32_t> scalarBits;  // type id -> width (0: bool)
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size() + 16);
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) return malformed("instruction word count");
    if ((opcode == kOpTypeInt || opcode == kOpTypeFloat) && count >= 3) scalarBits[words[at + 1]] = words[at + 2];
    if (opcode == kOpTypeBool && count >= 2) scalarBits[words[at + 1]] = 0;
    auto scalar = count == 3 && opcode == kOpConstantNull ? scalarBits.find(words[at + 1]) : scalarBits.end();
    if (scalar == scalarBits.end()) {
      out.insert(out.end(), words.begin() + at, words.begin() + at + count);
    } else if (scalar->second == 0) {
      out.insert(out.end(), {3u << 16 | kOpConstantFalse, words[at + 1], words[at + 2]});
    } else {
      const uint32_t valueWords = scalar->second > 32 ? 2 : 1;
      out.insert(out.end(), {(3 + valueWords) << 16 | kOpConstant, words[at + 1], words[at + 2]});
      out.insert(out.end(), valueWords, 0u);
    }
    at += count;
  }
  fromWords(out, binary);
  return Error::success();
}

Error renumberLabels(std::vector<char> &binary, bool &ambiguous) {
  ambiguous = false;
  std::vector<uint32_t> words;
  if (Error err = toWords(binary, words)) return err;
  uint32_t bound = words[3];

  // Pass 1: each function's labels get fresh ids; names of labels go (block
  // names are cosmetic, and a colliding id's name is ambiguous).
  std::vector<std::map<uint32_t, uint32_t>> functions;  // old label id -> new, per function
  std::map<uint32_t, bool> labelIds;
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) return malformed("instruction word count");
    if (opcode == kOpFunction) functions.emplace_back();
    if (opcode == kOpLabel) {
      if (functions.empty() || count < 2) return malformed("label outside a function");
      if (!functions.back().emplace(words[at + 1], bound++).second) {
        ambiguous = true;
        return Error::success();
      }
      labelIds[words[at + 1]] = true;
    }
    if (opcode == kOpSwitch) return malformed("an OpSwitch, which OnePass lowers before code generation");
    at += count;
  }

  // Pass 2: rewrite labels and the label operands of control flow.
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size());
  size_t function = 0;
  bool inFunction = false;
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (opcode == kOpName && count >= 2 && labelIds.count(words[at + 1])) {
      at += count;
      continue;
    }
    const size_t first = out.size();
    out.insert(out.end(), words.begin() + at, words.begin() + at + count);
    if (opcode == kOpFunction) {
      if (inFunction) ++function;
      inFunction = true;
    }
    if (inFunction) {
      std::map<uint32_t, uint32_t> &labels = functions[function];
      const char *problem = nullptr;
      auto relabel = [&](size_t operand) {
        if (operand >= count) {
          problem = "control flow operand count";
          return;
        }
        auto found = labels.find(out[first + operand]);
        if (found == labels.end()) problem = "a branch to a block of another function";
        else out[first + operand] = found->second;
      };
      switch (opcode) {
      case kOpLabel:
      case kOpBranch:
      case kOpSelectionMerge: relabel(1); break;
      case kOpBranchConditional:
        relabel(2);
        relabel(3);
        break;
      case kOpLoopMerge:
        relabel(1);
        relabel(2);
        break;
      case kOpPhi:  // result type, result, then (value, parent block) pairs
        for (size_t operand = 4; operand < count; operand += 2) relabel(operand);
        break;
      default: break;
      }
      if (problem) return malformed(problem);
    }
    at += count;
  }
  out[3] = bound;
  fromWords(out, binary);
  return Error::success();
}

}  // namespace onepass::jit::spirv
