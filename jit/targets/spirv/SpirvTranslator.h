// The SPIR-V target (stage 2) for OpenCL and Level Zero devices: LLVM's
// in-process SPIR-V backend (spirv64, the OpenCL environment: Kernel,
// Addresses, Int64, and Float64/Float16/Int64Atomics where a kernel needs
// them). The entry is an OpenCL kernel over the kernel's fields, pointers as
// 64-bit integers (global addresses: every argument is set by value); then,
// for a range kernel, its global
// range (GridEntry.h); then, for a kernel with local accessors, the
// work-group's local memory as a `local` pointer, whose size the launch sets
// (clSetKernelArg with a size and no value). Work-item queries read
// OpenCL's built-in variables, barriers are OpControlBarrier, math calls
// OpenCL.std extended instructions.
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include "Driver.h"

#include <memory>

namespace onepass::jit {

inline constexpr const char *kSpirvKernelSymbol = ONEPASS_ABI_SPIRV_KERNEL;

// oneItemSubGroups: sub-groups of one work-item each, for devices without
// sub-group support (jit_api.h, ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS).
std::unique_ptr<Translator> makeSpirvTranslator(bool oneItemSubGroups = false);

}  // namespace onepass::jit
