// Post-processing of the SPIR-V binaries LLVM's backend emits.
#pragma once

#include "llvm/Support/Error.h"

#include <vector>

namespace onepass::jit::spirv {

// Gives every basic block label (OpLabel) a new id above the module's bound,
// and rewrites the label operands of branches and phis to match, in each
// function. LLVM 22's SPIR-V backend keeps the ids of basic blocks in a
// process-wide table keyed by the MachineFunction's address
// (SPIRVModuleAnalysis's static ModuleAnalysisInfo): once a process has
// compiled one module, a later module whose MachineFunction reuses an old
// address can get an old block id that collides with one of its own types or
// values ("Id N is defined more than once" from spirv-val). Block ids are
// used nowhere else, so fresh ones are always right -- unless two blocks of
// one function got the same old id: then branches to them cannot be told
// apart, `ambiguous` is set and the binary is left as it was (the caller
// compiles again; see SpirvTranslator.cpp). Expects no OpSwitch
// (switches are lowered to branches first): an OpSwitch is an error.
// Also checks the binary's framing (magic, word counts) and fails on a
// malformed one.
llvm::Error renumberLabels(std::vector<char> &binary, bool &ambiguous);

// Spells null scalars out: OpConstantNull of an integer, float or boolean
// type becomes OpConstant 0 (OpConstantFalse). Both are valid SPIR-V, but
// older consumers reject null scalars (the Khronos translator of LLVM 15,
// which turns SPIR-V into SPIR for PoCL, asserts on them).
llvm::Error spellOutScalarNulls(std::vector<char> &binary);

}  // namespace onepass::jit::spirv
