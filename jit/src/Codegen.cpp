#include "Codegen.h"

#include "MachinePool.h"

#include "../../common/platform/EnvironmentSwitch.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
void LLVMInitializeSPIRVTargetInfo();
void LLVMInitializeSPIRVTarget();
void LLVMInitializeSPIRVTargetMC();
void LLVMInitializeSPIRVAsmPrinter();
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
}
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

#include <malloc.h>

using namespace llvm;

namespace onepass::jit {

namespace {
// glibc's malloc gives memory back to the system as soon as the top of the
// heap holds more than a threshold that starts at 128 KiB (it grows only as
// large blocks are freed), and serves blocks over another such threshold
// with mmap. A compile takes a few MiB in blocks of up to a few hundred KiB
// (AMDGPU's register allocator: one array over its thousands of register
// units, three times per kernel) and frees them all at its end, so each
// compile faulted those pages in again: 900 page faults for the smallest
// AMDGPU kernel, 3 ms of its 17 ms on a 2-core VM. The thresholds glibc's own
// adjustment ends at (32 MiB for mmap, twice that for giving back) are set
// once, when the JIT first compiles; a process whose user set malloc's
// tunables (GLIBC_TUNABLES, MALLOC_*_) keeps them, and
// ONEPASS_JIT_MALLOC_TUNING=0 leaves malloc as it is.
void tuneMalloc() {
  if (switchedOff("ONEPASS_JIT_MALLOC_TUNING")) return;
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.")) return;
  for (const char *name : {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_"})
    if (std::getenv(name)) return;
#ifdef M_MMAP_THRESHOLD
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    tuneMalloc();
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMInitializeSPIRVTargetInfo();
    LLVMInitializeSPIRVTarget();
    LLVMInitializeSPIRVTargetMC();
    LLVMInitializeSPIRVAsmPrinter();
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // A developer's window into LLVM: its own options, e.g.
    // "-pass-remarks-missed=loop-vectorize" (they go to standard error).
    if (const char *arguments = std::getenv("ONEPASS_JIT_LLVM_ARGS")) {
      std::vector<std::string> words{"onepass-jit"};
      std::istringstream split(arguments);
      for (std::string word; split >> word;) words.push_back(word);
      std::vector<const char *> argv;
      for (const std::string &word : words) argv.push_back(word.c_str());
      cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data(), "", &errs());
    }
  });
}

std::string hostFeatures() {
  std::string features;
  for (const auto &feature : sys::getHostCPUFeatures()) {
    if (!features.empty()) features += ',';
    features += (feature.second ? "+" : "-") + feature.first().str();
  }
  return features;
}
}  // namespace

Expected<std::unique_ptr<TargetMachine>> createHostTargetMachine() {
  initializeTargets();
  Triple triple(sys::getProcessTriple());
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) return createStringError(inconvertibleErrorCode(), "no LLVM target for this host: " + error);
  TargetOptions options;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(triple, sys::getHostCPUName(), hostFeatures(),
                                                                     options, Reloc::PIC_, CodeModel::Small,
                                                                     CodeGenOptLevel::Aggressive));
  if (!machine) return createStringError(inconvertibleErrorCode(), "cannot create a target machine for this host");
  return machine;
}

namespace {
// The highest N <= wanted such that `prefix`N is among `names`, or 0.
template <typename Entries> unsigned highestKnown(Entries entries, StringRef prefix, unsigned wanted) {
  unsigned best = 0;
  for (const auto &entry : entries) {
    StringRef name(entry.Key);
    unsigned number = 0;
    if (!name.consume_front(prefix) || name.getAsInteger(10, number)) continue;  // also skips sm_90a and the like
    if (number <= wanted && number > best) best = number;
  }
  return best;
}

// The lowest PTX ISA (10 * major + minor) that code for sm_`sm` needs (LLVM
// refuses to emit older PTX for it).
unsigned minimumPtxVersion(unsigned sm) {
  static const std::pair<unsigned, unsigned> kTable[] = {
      {20, 32}, {30, 60},  {50, 40},  {52, 41},  {53, 42},  {60, 50},  {61, 50}, {62, 50},
      {70, 60}, {72, 61},  {75, 63},  {80, 70},  {86, 71},  {87, 74},  {88, 90}, {89, 78},
      {90, 78}, {100, 86}, {101, 86}, {103, 88}, {110, 90}, {120, 87}, {121, 88}};
  unsigned needed = 32;
  for (const auto &[architecture, ptx] : kTable)
    if (architecture == sm) return ptx;
  for (const auto &[architecture, ptx] : kTable)
    if (architecture < sm) needed = std::max(needed, ptx);
  return needed;
}

std::string ptxName(unsigned version) { return std::to_string(version / 10) + "." + std::to_string(version % 10); }
}  // namespace

Expected<std::unique_ptr<TargetMachine>> createNvptxTargetMachine(unsigned smVersion, unsigned ptxVersion) {
  initializeTargets();
  Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) return createStringError(inconvertibleErrorCode(), "no NVPTX target in this LLVM: " + error);
  // A GPU newer than this LLVM runs code for the newest architecture LLVM
  // knows (the driver compiles PTX forward); the PTX ISA is the newest both
  // the driver (ptxVersion) and LLVM accept, and at least what the
  // architecture needs (LLVM raises it to that by itself).
  std::unique_ptr<MCSubtargetInfo> info(target->createMCSubtargetInfo(triple, "", ""));
  unsigned sm = highestKnown(info->getAllProcessorDescriptions(), "sm_", smVersion);
  if (sm == 0)
    return createStringError(inconvertibleErrorCode(),
                             "this LLVM knows no NVPTX architecture up to sm_" + std::to_string(smVersion));
  std::string features;
  if (unsigned ptx = ptxVersion ? highestKnown(info->getAllProcessorFeatures(), "ptx", ptxVersion) : 0) {
    const unsigned needed = minimumPtxVersion(sm);
    if (ptx < needed)
      return createStringError(inconvertibleErrorCode(),
                               "code for sm_" + std::to_string(sm) + " needs PTX ISA " + ptxName(needed) +
                                   " or newer, but the driver accepts PTX ISA " + ptxName(ptxVersion) +
                                   " at most: the NVIDIA driver is too old for this GPU, update it");
    features = "+ptx" + std::to_string(ptx);
  }
  TargetOptions options;
  std::string cpu = "sm_" + std::to_string(sm);
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(triple, cpu, features, options, std::nullopt,
                                                                     std::nullopt, CodeGenOptLevel::Aggressive));
  if (!machine) return createStringError(inconvertibleErrorCode(), "cannot create an NVPTX target machine for " + cpu);
  return machine;
}

Expected<std::unique_ptr<TargetMachine>> createSpirvTargetMachine() {
  initializeTargets();
  Triple triple("spirv64-unknown-unknown");
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) return createStringError(inconvertibleErrorCode(), "no SPIR-V target in this LLVM: " + error);
  TargetOptions options;
  // Code generation at -O0: the IR is optimized already (and the device's
  // compiler optimizes the SPIR-V again); the backend's combiner would only
  // fold compare-and-add pairs into OpIAddCarry, which older consumers
  // (LLVM 15's SPIR-V translator, for PoCL) cannot read.
  std::unique_ptr<TargetMachine> machine(
      target->createTargetMachine(triple, "", "", options, std::nullopt, std::nullopt, CodeGenOptLevel::None));
  if (!machine) return createStringError(inconvertibleErrorCode(), "cannot create a SPIR-V target machine");
  return machine;
}

Expected<std::unique_ptr<TargetMachine>> createAmdgcnTargetMachine(const std::string &arch) {
  initializeTargets();
  Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) return createStringError(inconvertibleErrorCode(), "no AMDGPU target in this LLVM: " + error);
  std::unique_ptr<MCSubtargetInfo> info(target->createMCSubtargetInfo(triple, arch, ""));
  if (!info || !info->isCPUStringValid(arch))
    return createStringError(inconvertibleErrorCode(), "this LLVM knows no AMD GPU architecture '" + arch + "'");
  TargetOptions options;
  std::unique_ptr<TargetMachine> machine(
      target->createTargetMachine(triple, arch, "", options, Reloc::PIC_, std::nullopt, CodeGenOptLevel::Aggressive));
  if (!machine)
    return createStringError(inconvertibleErrorCode(), "cannot create an AMDGPU target machine for " + arch);
  return machine;
}

void setTarget(Module &module, TargetMachine &machine) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
}

void stampTargetAttributes(Module &module, TargetMachine &machine, unsigned preferredVectorBits) {
  for (Function &fn : module.functions()) {
    if (fn.isDeclaration()) continue;
    fn.addFnAttr("target-cpu", machine.getTargetCPU());
    fn.addFnAttr("target-features", machine.getTargetFeatureString());
    if (machine.getTargetTriple().isX86() && preferredVectorBits)
      fn.addFnAttr("prefer-vector-width", std::to_string(preferredVectorBits));
  }
}

void shareDenormalMode(Module &module, const Function &from) {
  const char *const names[] = {"denormal-fp-math", "denormal-fp-math-f32"};
  for (Function &fn : module.functions()) {
    if (fn.isDeclaration() || &fn == &from || fn.hasFnAttribute(names[0]) || fn.hasFnAttribute(names[1])) continue;
    for (const char *name : names)
      if (from.hasFnAttribute(name)) fn.addFnAttr(from.getFnAttribute(name));
  }
}

void runPipeline(Module &module, PassBuilder &builder, function_ref<ModulePassManager(PassBuilder &)> build) {
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgscc;
  ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  ModulePassManager passes = build(builder);
  passes.run(module, modules);
}

void optimize(Module &module, TargetMachine &machine,
              const std::function<void(FunctionPassManager &)> &beforeVectorizer) {
  PipelineTuningOptions tuning;
  // A GPU thread's loops gain nothing from loop vectorization (NVPTX has no
  // wide vector registers); SLP still forms the vector loads and stores it has.
  tuning.LoopVectorization = !machine.getTargetTriple().isNVPTX();
  tuning.SLPVectorization = true;
  tuning.LoopInterleaving = false;
  PassBuilder builder(&machine, tuning);
  if (machine.getTargetTriple().isNVPTX()) {
    // A GPU thread has no vector registers: once the function is simplified
    // (SROA has made its vecs values), vector arithmetic (sycl::vec's) becomes
    // scalar, so each lane is optimized on its own and a lane no one reads
    // dies (as a float4's fourth often does). Loads and stores keep their
    // width (one 128-bit access), and 32-bit pieces (half2) stay vectors,
    // which NVIDIA GPUs compute natively.
    builder.registerOptimizerEarlyEPCallback([](ModulePassManager &passes, OptimizationLevel, ThinOrFullLTOPhase) {
      ScalarizerPassOptions options;
      options.ScalarizeLoadStore = false;
      options.ScalarizeMinBits = 32;
      FunctionPassManager lanes;
      lanes.addPass(ScalarizerPass(options));
      lanes.addPass(InstCombinePass());
      lanes.addPass(ADCEPass());
      passes.addPass(createModuleToFunctionPassAdaptor(std::move(lanes)));
    });
  }
  if (beforeVectorizer)
    builder.registerVectorizerStartEPCallback(
        [&](FunctionPassManager &passes, OptimizationLevel) { beforeVectorizer(passes); });
  runPipeline(module, builder, [](PassBuilder &b) { return b.buildPerModuleDefaultPipeline(OptimizationLevel::O3); });
}

Expected<std::unique_ptr<CodegenPipeline>> CodegenPipeline::create(TargetMachine &machine, CodeGenFileType type) {
  std::unique_ptr<CodegenPipeline> pipeline(new CodegenPipeline);
  if (machine.addPassesToEmitFile(pipeline->passes_, pipeline->stream_, nullptr, type))
    return createStringError(inconvertibleErrorCode(), "the target cannot emit this kind of file");
  return pipeline;
}

Expected<std::vector<char>> CodegenPipeline::run(Module &module) {
  buffer_.clear();
  passes_.run(module);
  return std::vector<char>(buffer_.begin(), buffer_.end());
}

Expected<std::vector<char>> emitFile(Module &module, TargetMachine &machine, CodeGenFileType type) {
  // ONEPASS_JIT_REUSE_PIPELINES=0: a new pass manager for every module (a
  // check on the reuse: the outputs must be the same byte for byte).
  static const bool reuse = onUnlessSwitchedOff("ONEPASS_JIT_REUSE_PIPELINES");
  Expected<CodegenPipeline *> pooled =
      reuse ? MachinePool::instance().pipeline(machine, type) : Expected<CodegenPipeline *>(nullptr);
  if (!pooled) return pooled.takeError();
  if (*pooled) return (*pooled)->run(module);
  Expected<std::unique_ptr<CodegenPipeline>> fresh = CodegenPipeline::create(machine, type);
  if (!fresh) return fresh.takeError();
  return (*fresh)->run(module);
}

namespace {
// <ONEPASS_DUMP_DIR>/<name><extension>, or "" if dumps are off.
std::string dumpPath(StringRef name, StringRef extension) {
  static const char *directory = std::getenv("ONEPASS_DUMP_DIR");
  if (!directory || !*directory) return "";
  // Kernel symbols of templates grow past what a file name may hold.
  std::string file = name.str();
  if (file.size() > 200) file = file.substr(0, 160) + "-" + utohexstr(hash_value(name));
  return (Twine(directory) + "/" + file + extension).str();
}
}  // namespace

void dumpModuleIfRequested(const Module &module, StringRef name) {
  const std::string path = dumpPath(name, ".ll");
  if (path.empty()) return;
  std::error_code ec;
  raw_fd_ostream out(path, ec, sys::fs::OF_Text);
  if (!ec) module.print(out, nullptr);
}

void dumpObjectIfRequested(ArrayRef<char> object, StringRef name, StringRef extension) {
  const std::string path = dumpPath(name, extension);
  if (path.empty()) return;
  std::error_code ec;
  raw_fd_ostream out(path, ec, sys::fs::OF_None);
  if (!ec) out.write(object.data(), object.size());
}

}  // namespace onepass::jit
