// The C entry points of libonepass-jit.so (jit_api.h). They translate
// llvm::Error into messages and never let an exception or a crash escape.
#include "onepass/jit/jit_api.h"

#include "CpuPassPipeline.h"
#include "CpuTranslator.h"
#include "Driver.h"
#include "PtxTranslator.h"
#include "SpirvTranslator.h"
#include "AmdgcnTranslator.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include "../../common/platform/SharedObjectLoader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

char *copyMessage(const std::string &message) {
  char *copy = static_cast<char *>(std::malloc(message.size() + 1));
  if (copy) std::memcpy(copy, message.c_str(), message.size() + 1);
  return copy;
}

int fail(char **error, const std::string &message) {
  if (error) *error = copyMessage(message);
  return 1;
}

}  // namespace

extern "C" {

int onepass_jit_interface_version(void) { return ONEPASS_JIT_INTERFACE_VERSION; }

const char *onepass_jit_version_string(void) { return "OnePass " ONEPASS_VERSION ", LLVM " LLVM_VERSION_STRING; }

namespace {
std::vector<onepass::jit::FieldConstant> constantsOf(const onepass_jit_request &request) {
  std::vector<onepass::jit::FieldConstant> constants;
  for (uint32_t i = 0; i < request.constant_count; ++i)
    constants.push_back({request.constants[i].field, request.constants[i].size, request.constants[i].value});
  return constants;
}
}  // namespace

namespace {
onepass::jit::PtxTarget ptxTarget(const onepass_jit_target &target) {
  onepass::jit::PtxTarget result;
  result.smVersion = target.arch;
  result.ptxVersion = target.isa_version;
  if (target.device_library) result.libdevice.path = target.device_library;
  if (target.device_library_missing) result.libdevice.searched = target.device_library_missing;
  return result;
}

// Hands a compiled binary over as a malloc'ed buffer.
int deliver(const void *data, size_t size, onepass_jit_buffer *binary, char **error) {
  binary->size = size;
  binary->data = std::malloc(size ? size : 1);
  if (!binary->data) return fail(error, "out of host memory for the compiled kernel");
  std::memcpy(binary->data, data, size);
  return 0;
}
}  // namespace

int onepass_jit_compile(const onepass_jit_request *request, const onepass_jit_target *target,
                        onepass_jit_buffer *binary, char **error) {
  if (!request || !request->image || !request->kernel_symbol || !target || !binary)
    return fail(error, "onepass_jit_compile: missing argument");
  std::unique_ptr<onepass::jit::Translator> translator;
  switch (target->kind) {
  case ONEPASS_JIT_TARGET_HOST: translator = onepass::jit::makeCpuTranslator(); break;
  case ONEPASS_JIT_TARGET_PTX: translator = onepass::jit::makePtxTranslator(ptxTarget(*target)); break;
  case ONEPASS_JIT_TARGET_SPIRV:
    translator = onepass::jit::makeSpirvTranslator((target->arch & ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS) != 0);
    break;
  case ONEPASS_JIT_TARGET_AMDGCN: {
    onepass::jit::AmdgcnTarget amdgcn;
    char arch[32];
    std::snprintf(arch, sizeof arch, "gfx%x", target->arch);
    amdgcn.arch = arch;
    if (target->device_library) amdgcn.deviceLibraries = target->device_library;
    if (target->device_library_missing) amdgcn.deviceLibrariesMissing = target->device_library_missing;
    translator = onepass::jit::makeAmdgcnTranslator(amdgcn);
    break;
  }
  default: return fail(error, "onepass_jit_compile: unknown target kind " + std::to_string(target->kind));
  }
  onepass::jit::Specialization specialization;
  specialization.constants = constantsOf(*request);
  for (uint32_t i = 0; request->libraries && i < request->library_count; ++i)
    specialization.libraries.push_back({request->libraries[i].image, request->libraries[i].image_size});
  // (A work-group range only where the target compiles it in: the CPU's.)
  if (target->kind == ONEPASS_JIT_TARGET_HOST)
    specialization.localRange = {request->local_range[0], request->local_range[1], request->local_range[2]};
  llvm::Expected<std::vector<char>> compiled = onepass::jit::compileKernel(
      request->image, request->image_size, request->kernel_symbol, specialization, *translator);
  if (!compiled) return fail(error, llvm::toString(compiled.takeError()));
  // PTX is text: NUL-terminated, as the driver wants it.
  if (target->kind == ONEPASS_JIT_TARGET_PTX) compiled->push_back('\0');
  return deliver(compiled->data(), compiled->size(), binary, error);
}

void onepass_jit_warm_up(const onepass_jit_target *target) {
  if (target && target->kind == ONEPASS_JIT_TARGET_PTX) onepass::jit::warmUpPtx(ptxTarget(*target));
}

int onepass_jit_load_cpu(const void *object, uint64_t size, onepass_cpu_kernel_fn *kernel, char **error) {
  if (!object || !kernel) return fail(error, "onepass_jit_load_cpu: missing argument");
  std::string why;
  void *address = onepass::loadSharedObject(object, size, onepass::jit::kCpuLaunchSymbol, why);
  if (!address) return fail(error, "cannot load the compiled CPU kernel: " + why);
  *kernel = reinterpret_cast<onepass_cpu_kernel_fn>(address);
  return 0;
}

void onepass_jit_free(void *pointer) { std::free(pointer); }

int onepass_jit_test_run_passes(const void *bitcode, uint64_t size, const char *pipeline, onepass_jit_buffer *result,
                                char **error) {
  if (!bitcode || !pipeline || !result) return fail(error, "onepass_jit_test_run_passes: missing argument");
  llvm::LLVMContext ctx;
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(static_cast<const char *>(bitcode), size), "input"), ctx);
  if (!parsed) return fail(error, llvm::toString(parsed.takeError()));
  llvm::Expected<std::string> text = onepass::jit::runCpuPassPipeline(**parsed, pipeline);
  if (!text) return fail(error, llvm::toString(text.takeError()));
  result->size = text->size() + 1;
  result->data = copyMessage(*text);
  return result->data ? 0 : fail(error, "out of host memory");
}

}  // extern "C"
