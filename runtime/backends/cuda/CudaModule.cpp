// The CUDA backend's modules: PTX linked into a cubin by the driver, and
// binaries loaded as modules with their kernel entry.
#include "CudaBackend.h"
#include "sycl/detail/onepass_abi.hpp"

#include <cstdlib>
#include <cstring>

namespace onepass::cuda {

namespace {

// Loads a cubin or PTX image and finds the kernel entry; returns an error or "".
std::string loadModule(const Device &d, const void *image, CUfunction &function) {
  const DriverApi &api = *backend().api;
  char errorLog[8192] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog))};
  CUmodule module = nullptr;
  CUresult result = api.cuModuleLoadDataEx(&module, image, 2, options, values);
  if (result != CUDA_SUCCESS)
    return "the driver rejected the kernel's binary for sm_" + std::to_string(d.smVersion) + ": " +
           describe(api, result) + (errorLog[0] ? std::string(": ") + errorLog : std::string());
  result = api.cuModuleGetFunction(&function, module, ONEPASS_ABI_PTX_KERNEL);
  return result == CUDA_SUCCESS ? "" : "the module has no kernel entry: " + describe(api, result);
}

// What finalizing is given: the JIT's PTX, or what `onepass-cache warm
// --target ptx` stored where it had the CUDA toolkit: a fat binary holding
// ptxas's cubin and the PTX (the driver takes the cubin when it can, else
// compiles the PTX).
int inputType(const void *image, size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(image);
  if (size >= 4 && bytes[0] == 0x50 && bytes[1] == 0xed && bytes[2] == 0x55 && bytes[3] == 0xba)
    return CU_JIT_INPUT_FATBINARY;  // (the fat binary's magic number, 0xba55ed50)
  if (size >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F') return CU_JIT_INPUT_CUBIN;
  return CU_JIT_INPUT_PTX;
}

// PTX -> cubin through the driver's linker, so the cache can hold the final
// binary and a later run pays neither LLVM nor the PTX compiler.
bool linkCubin(const Device &d, const void *ptx, size_t ptxSize, std::vector<char> &cubin, std::string &why) {
  const DriverApi &api = *backend().api;
  char errorLog[8192] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog))};
  CUlinkState link = nullptr;
  CUresult result = api.cuLinkCreate_v2(2, options, values, &link);
  if (result == CUDA_SUCCESS)
    result = api.cuLinkAddData_v2(link, CU_JIT_INPUT_PTX, const_cast<void *>(ptx), ptxSize, "onepass.ptx", 0, nullptr,
                                  nullptr);
  void *image = nullptr;
  size_t imageSize = 0;
  if (result == CUDA_SUCCESS) result = api.cuLinkComplete(link, &image, &imageSize);
  if (result == CUDA_SUCCESS) cubin.assign(static_cast<char *>(image), static_cast<char *>(image) + imageSize);
  else
    why = "linking the PTX for sm_" + std::to_string(d.smVersion) + " failed: " + describe(api, result) +
          (errorLog[0] ? std::string(": ") + errorLog : std::string());
  if (link) api.cuLinkDestroy(link);  // owns `image`
  return result == CUDA_SUCCESS;
}

}  // namespace

// PTX -> cubin, so the runtime's cache holds the final binary and a later run
// pays neither LLVM nor the driver's PTX compiler.
int finalizeBinary(uint32_t device, const void *ptx, uint64_t size, void **binary, uint64_t *binarySize, char **error) {
  const Device &d = *backend().devices[device];
  if (!enter(device, error)) return 1;
  std::vector<char> cubin;
  std::string why;
  if (inputType(ptx, size) != CU_JIT_INPUT_PTX) {
    // A fat binary or cubin (onepass-cache warm --target ptx) is final as
    // it is: the driver picks its cubin at load (or compiles its PTX).
    cubin.assign(static_cast<const char *>(ptx), static_cast<const char *>(ptx) + size);
  } else if (!linkCubin(d, ptx, size, cubin, why)) {
    return fail(error, why);
  }
  *binary = std::malloc(cubin.size());
  if (!*binary) return fail(error, "out of host memory for a cubin");
  std::memcpy(*binary, cubin.data(), cubin.size());
  *binarySize = cubin.size();
  return 0;
}

int loadKernel(uint32_t device, const void *binary, uint64_t, void **kernel, char **error) {
  const Device &d = *backend().devices[device];
  if (!enter(device, error)) return 1;
  CUfunction function = nullptr;
  std::string why = loadModule(d, binary, function);
  if (!why.empty()) return fail(error, why);
  *kernel = function;
  return 0;
}

int kernelLimits(uint32_t device, void *kernel, onepass_kernel_limits *limits, char **error) {
  const Device &d = *backend().devices[device];
  const DriverApi &api = *backend().api;
  if (!api.cuFuncGetAttribute) return fail(error, "the NVIDIA driver lacks cuFuncGetAttribute");
  if (!enter(device, error)) return 1;
  int threads = 0, local = 0;
  CUfunction function = static_cast<CUfunction>(kernel);
  if (CUresult r = api.cuFuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function))
    return fail(error, "cuFuncGetAttribute on device " + d.name + ": " + describe(api, r));
  if (CUresult r = api.cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, function))
    return fail(error, "cuFuncGetAttribute on device " + d.name + ": " + describe(api, r));
  limits->max_work_group_size = static_cast<uint64_t>(threads);
  limits->private_bytes = static_cast<uint64_t>(local);
  return 0;
}

}  // namespace onepass::cuda
