// What the fake Level Zero driver needs to know about a SPIR-V module: its
// kernels' names and each kernel's parameters (size in bytes, and whether it
// is a pointer to work-group (`local`) memory, which takes any size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fake_level_zero {

struct KernelParameter {
  uint64_t sizeBytes = 0;
  bool localPointer = false;
};

// Kernel name -> its parameters, in order.
using SpirvKernels = std::map<std::string, std::vector<KernelParameter>>;

// Reads a SPIR-V binary's entry points and their OpFunctionParameter types;
// false with `why` if it is not SPIR-V or is malformed.
bool readSpirvKernels(const void *binary, size_t sizeBytes, SpirvKernels &kernels, std::string &why);

}  // namespace fake_level_zero
