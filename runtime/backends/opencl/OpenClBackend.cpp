// The OpenCL backend plugin (issue 18): OpenCL devices that take OnePass's
// SPIR-V (clCreateProgramWithIL) or SPIR 1.2 bitcode made from it
// (cl_khr_spir, e.g. Debian's PoCL; SpirConverter.h), with shared virtual
// memory for USM. Each device has its own context, one in-order queue for the
// synchronous operations and kStreams in-order queues with profiling for the
// asynchronous ones (the runtime's streams; markers are OpenCL events, device
// times come from the events' profiling counters). Kernel arguments follow
// jit_api.h's SPIR-V entry: the fields by value, a range kernel's range, and
// a kernel's local memory as a `local` argument.
#include "OpenClApi.h"
#include "SpirConverter.h"

#include "BackendErrors.h"
#include "BackendInterface.h"
#include "PluginSupport.h"
#include "onepass/jit/jit_api.h"
#include "sycl/detail/onepass_abi.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <map>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onepass::opencl {

bool Api::load(std::string &why) {
  library = rt::openVendorLibrary("libOpenCL.so.1", "an OpenCL ICD loader", why);
#define ONEPASS_CL_RESOLVE(name)                                                                                       \
  &&rt::resolveVendorFunction(library, "libOpenCL.so.1", #name, name, "OpenCL 2.1 or newer is needed", why)
  return library ONEPASS_CL_FUNCTIONS(ONEPASS_CL_RESOLVE);
#undef ONEPASS_CL_RESOLVE
}

std::string errorName(cl_int status) {
  const char *name = nullptr;
  switch (status) {
  case CL_DEVICE_NOT_FOUND: name = "CL_DEVICE_NOT_FOUND"; break;
  case CL_OUT_OF_RESOURCES: name = "CL_OUT_OF_RESOURCES"; break;
  case CL_OUT_OF_HOST_MEMORY: name = "CL_OUT_OF_HOST_MEMORY"; break;
  case CL_BUILD_PROGRAM_FAILURE: name = "CL_BUILD_PROGRAM_FAILURE"; break;
  case CL_INVALID_VALUE: name = "CL_INVALID_VALUE"; break;
  case CL_INVALID_BINARY: name = "CL_INVALID_BINARY"; break;
  case CL_INVALID_KERNEL_NAME: name = "CL_INVALID_KERNEL_NAME"; break;
  case CL_INVALID_ARG_INDEX: name = "CL_INVALID_ARG_INDEX"; break;
  case CL_INVALID_ARG_SIZE: name = "CL_INVALID_ARG_SIZE"; break;
  case CL_INVALID_WORK_GROUP_SIZE: name = "CL_INVALID_WORK_GROUP_SIZE"; break;
  case CL_INVALID_WORK_ITEM_SIZE: name = "CL_INVALID_WORK_ITEM_SIZE"; break;
  case CL_INVALID_GLOBAL_WORK_SIZE: name = "CL_INVALID_GLOBAL_WORK_SIZE"; break;
  case CL_INVALID_OPERATION: name = "CL_INVALID_OPERATION"; break;
  default: break;
  }
  return (name ? std::string(name) + " (" : std::string("OpenCL error (")) + std::to_string(status) + ")";
}

namespace {

Api api;

// In-order queues per device for the runtime's asynchronous operations.
constexpr uint32_t kStreams = 4;

struct Device {
  cl_device_id id = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;         // synchronous operations
  cl_command_queue streams[kStreams] = {};  // asynchronous ones (profiling on where possible)
  bool timing = false;                      // the streams' events have profiling counters
  // A marker that completed at host steady-clock time epochHost completed at
  // device time epochDevice (both ns): device times map onto the host's clock.
  uint64_t epochHost = 0, epochDevice = 0;
  bool spir = false;         // takes SPIR 1.2 (converted), not SPIR-V
  bool fineGrained = false;  // fine-grained buffer SVM: host and shared USM
  std::string name, vendor, version, driver, platform, identity;
  onepass_backend_device_info info{};
};

std::vector<std::unique_ptr<Device>> devices;
// Why OpenCL devices were left out, for the log.
std::vector<std::string> leftOut;
const onepass_runtime_services *services = nullptr;

void log(int level, const std::string &message) {
  if (services && services->log) services->log(level, ("OpenCL: " + message).c_str());
}

std::string deviceString(cl_device_id id, cl_device_info what) {
  size_t size = 0;
  if (api.clGetDeviceInfo(id, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  api.clGetDeviceInfo(id, what, size, text.data(), nullptr);
  text.resize(std::strlen(text.c_str()));
  return text;
}

template <typename T> T deviceValue(cl_device_id id, cl_device_info what) {
  T value{};
  api.clGetDeviceInfo(id, what, sizeof value, &value, nullptr);
  return value;
}

cl_ulong eventTime(cl_event event, cl_profiling_info which, cl_int &status) {
  cl_ulong value = 0;
  status = api.clGetEventProfilingInfo(event, which, sizeof value, &value, nullptr);
  return value;
}

// The device's asynchronous queues, with profiling where the device has it,
// and the epoch that maps its event times onto the host's steady clock (a
// marker waited for: its end is taken as the time the wait returned, so
// device times map late by that wait's latency at most, never before the
// host submitted their commands). False, with the reason recorded, if no
// queue can be made.
bool makeStreams(Device &device) {
  const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int status = CL_SUCCESS;
  for (const bool timing : {true, false}) {
    device.timing = timing;
    status = CL_SUCCESS;
    for (uint32_t s = 0; s < kStreams && status == CL_SUCCESS; ++s)
      device.streams[s] =
          api.clCreateCommandQueueWithProperties(device.context, device.id, timing ? profiling : nullptr, &status);
    if (status == CL_SUCCESS) break;
    for (cl_command_queue &stream : device.streams) {  // (then without profiling)
      if (stream) api.clReleaseCommandQueue(stream);
      stream = nullptr;
    }
  }
  if (status != CL_SUCCESS) {
    leftOut.push_back("'" + device.name + "': clCreateCommandQueueWithProperties failed: " + errorName(status));
    return false;
  }
  if (!device.timing) return true;
  cl_event marker = nullptr;
  status = api.clEnqueueMarkerWithWaitList(device.streams[0], 0, nullptr, &marker);
  if (status == CL_SUCCESS) status = api.clWaitForEvents(1, &marker);
  device.epochHost = rt::steadyNanoseconds();
  if (status == CL_SUCCESS) device.epochDevice = eventTime(marker, CL_PROFILING_COMMAND_END, status);
  if (marker) api.clReleaseEvent(marker);
  if (status != CL_SUCCESS) device.timing = false;
  return true;
}

// Adds the device if it can run OnePass's kernels; otherwise records why not.
void consider(cl_device_id id, const std::string &platform, bool converterReady, const std::string &converterMissing) {
  auto device = std::make_unique<Device>();
  device->id = id;
  device->name = deviceString(id, CL_DEVICE_NAME);
  const std::string il = deviceString(id, CL_DEVICE_IL_VERSION);
  const std::string extensions = deviceString(id, CL_DEVICE_EXTENSIONS);
  const auto svm = deviceValue<cl_device_svm_capabilities>(id, CL_DEVICE_SVM_CAPABILITIES);
  if (il.find("SPIR-V") == std::string::npos) {
    if (extensions.find("cl_khr_spir") == std::string::npos) {
      leftOut.push_back("'" + device->name + "' takes neither SPIR-V nor SPIR");
      return;
    }
    if (!converterReady) {
      leftOut.push_back("'" + device->name + "' takes SPIR but no SPIR-V, and " + converterMissing);
      return;
    }
    device->spir = true;
  }
  if (!(svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
    leftOut.push_back("'" + device->name + "' has no shared virtual memory (USM needs it)");
    return;
  }
  device->fineGrained = (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
  cl_int status = CL_SUCCESS;
  device->context = api.clCreateContext(nullptr, 1, &id, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) {
    leftOut.push_back("'" + device->name + "': clCreateContext failed: " + errorName(status));
    return;
  }
  device->queue = api.clCreateCommandQueueWithProperties(device->context, id, nullptr, &status);
  if (status != CL_SUCCESS) {
    api.clReleaseContext(device->context);
    leftOut.push_back("'" + device->name + "': clCreateCommandQueueWithProperties failed: " + errorName(status));
    return;
  }
  if (!makeStreams(*device)) {
    api.clReleaseCommandQueue(device->queue);
    api.clReleaseContext(device->context);
    return;
  }
  device->vendor = deviceString(id, CL_DEVICE_VENDOR);
  device->version = deviceString(id, CL_DEVICE_VERSION);
  device->driver = deviceString(id, CL_DRIVER_VERSION);
  device->platform = platform;
  device->identity = "opencl " + platform + "|" + device->name + "|" + device->version + "|driver " + device->driver +
                     (device->spir ? "|spir 1.2 converter 2" : "|spir-v");
  onepass_backend_device_info &info = device->info;
  rt::copyInfoString(info.name, sizeof info.name, device->name);
  rt::copyInfoString(info.vendor, sizeof info.vendor, device->vendor);
  rt::copyInfoString(info.version, sizeof info.version, device->version);
  rt::copyInfoString(info.driver_version, sizeof info.driver_version, device->driver);
  const auto type = deviceValue<cl_device_type>(id, CL_DEVICE_TYPE);
  info.device_type = type & CL_DEVICE_TYPE_GPU ? ONEPASS_DEVICE_GPU : ONEPASS_DEVICE_CPU;
  info.vendor_id = deviceValue<cl_uint>(id, CL_DEVICE_VENDOR_ID);
  info.compute_units = deviceValue<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.clock_mhz = deviceValue<cl_uint>(id, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  info.global_mem_bytes = deviceValue<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.local_mem_bytes = deviceValue<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE);
  info.kernel_features = ONEPASS_KERNEL_FEATURE_BARRIER | ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY;
  // aspect::atomic64 is every atomic operation on 64-bit values: OpenCL's
  // base (add, exchange, compare-exchange) and extended (min, max, and, or,
  // xor) 64-bit atomics.
  if (extensions.find("cl_khr_int64_base_atomics") != std::string::npos &&
      extensions.find("cl_khr_int64_extended_atomics") != std::string::npos)
    info.kernel_features |= ONEPASS_KERNEL_FEATURE_ATOMIC64;
  // (PoCL's CPU devices compute half correctly without claiming cl_khr_fp16:
  // OnePass goes by the claim, as §4.6.4.3 asks.)
  if (extensions.find("cl_khr_fp16") != std::string::npos) info.kernel_features |= ONEPASS_KERNEL_FEATURE_FP16;
  info.max_alloc_bytes = deviceValue<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  // (At most ONEPASS_JIT_SPIRV_MAX_WORK_GROUP: what OnePass's SPIR-V kernels
  // are made for. PoCL's CPU devices allow 4096.)
  info.max_work_group_size =
      std::min<uint64_t>(deviceValue<size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE), ONEPASS_JIT_SPIRV_MAX_WORK_GROUP);
  info.has_fp64 = deviceValue<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  info.cache_line_bytes = deviceValue<cl_uint>(id, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
  info.global_cache_bytes = deviceValue<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  info.sub_group_size = 1;  // (sub-groups: not yet through this backend)
  size_t sizes[3] = {0, 0, 0};
  api.clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, nullptr);
  for (int axis = 0; axis < 3; ++axis)
    info.max_work_item_sizes[axis] = std::min<uint64_t>(sizes[axis], info.max_work_group_size);
  devices.push_back(std::move(device));
}

Device *at(uint32_t device) { return device < devices.size() ? devices[device].get() : nullptr; }

uint32_t deviceCount() { return static_cast<uint32_t>(devices.size()); }

int deviceInfo(uint32_t device, onepass_backend_device_info *info, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  *info = d->info;
  return 0;
}

// clSVMAlloc aligns to the largest OpenCL type (128 bytes) and may refuse
// more (PoCL does): a more aligned allocation is a larger one, aligned here,
// whose start is remembered for clSVMFree.
constexpr uint64_t kSvmAlignment = 128;
std::mutex alignedMutex;
std::map<void *, void *> alignedStarts;  // aligned pointer -> clSVMAlloc's

void *allocate(uint32_t device, uint64_t bytes, uint64_t alignment, uint32_t kind) {
  Device *d = at(device);
  if (!d) return nullptr;
  // Host and shared allocations are read by the host as they are: only
  // fine-grained SVM allows that.
  if (kind != ONEPASS_USM_DEVICE && !d->fineGrained) return nullptr;
  if (alignment & (alignment - 1)) return nullptr;
  cl_svm_mem_flags flags = CL_MEM_READ_WRITE | (d->fineGrained ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
  const uint64_t extra = alignment > kSvmAlignment ? alignment : 0;
  void *start = api.clSVMAlloc(d->context, flags, (bytes ? bytes : 1) + extra, 0);
  if (!start || !extra) return start;
  auto address = reinterpret_cast<uintptr_t>(start);
  void *aligned = reinterpret_cast<void *>((address + alignment - 1) / alignment * alignment);
  std::lock_guard<std::mutex> lock(alignedMutex);
  alignedStarts[aligned] = start;
  return aligned;
}

void deallocate(uint32_t device, void *pointer, uint32_t) {
  Device *d = at(device);
  if (!d || !pointer) return;
  api.clFinish(d->queue);
  for (cl_command_queue stream : d->streams) api.clFinish(stream);
  {
    std::lock_guard<std::mutex> lock(alignedMutex);
    if (auto found = alignedStarts.find(pointer); found != alignedStarts.end()) {
      pointer = found->second;
      alignedStarts.erase(found);
    }
  }
  api.clSVMFree(d->context, pointer);
}

// The queue of `stream`, or null with *error set.
cl_command_queue streamQueue(uint32_t device, uint32_t stream, char **error) {
  Device *d = at(device);
  if (!d || stream >= kStreams) {
    rt::reportBackendError(error, "no OpenCL device " + std::to_string(device) + " stream " + std::to_string(stream));
    return nullptr;
  }
  return d->streams[stream];
}

// Copies on `queue`; `blocking`: returns once done, else once enqueued (and
// flushed, so that the device starts it without a wait).
int copyOn(cl_command_queue queue, bool blocking, void *destination, const void *source, uint64_t bytes, char **error) {
  if (bytes == 0) return 0;
  cl_int status =
      api.clEnqueueSVMMemcpy(queue, blocking ? CL_TRUE : CL_FALSE, destination, source, bytes, 0, nullptr, nullptr);
  if (status == CL_SUCCESS && !blocking) status = api.clFlush(queue);
  if (status != CL_SUCCESS) return rt::reportBackendError(error, "clEnqueueSVMMemcpy failed: " + errorName(status));
  return 0;
}

int fillOn(cl_command_queue queue, bool blocking, void *destination, const void *pattern, uint32_t patternBytes,
           uint64_t count, char **error) {
  if (count == 0) return 0;
  cl_int status;
  if (patternBytes && patternBytes <= 128 && (patternBytes & (patternBytes - 1)) == 0) {
    // (OpenCL copies the pattern before clEnqueueSVMMemFill returns.)
    status =
        api.clEnqueueSVMMemFill(queue, destination, pattern, patternBytes, patternBytes * count, 0, nullptr, nullptr);
    if (status == CL_SUCCESS) status = blocking ? api.clFinish(queue) : api.clFlush(queue);
  } else {  // OpenCL fills with power-of-two patterns only: copy a filled host block (which must
            // outlive the copy: a blocking one, after the queue's earlier work)
    std::vector<char> block(static_cast<size_t>(patternBytes) * count);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(block.data() + i * patternBytes, pattern, patternBytes);
    status = api.clEnqueueSVMMemcpy(queue, CL_TRUE, destination, block.data(), block.size(), 0, nullptr, nullptr);
  }
  if (status != CL_SUCCESS) return rt::reportBackendError(error, "filling device memory failed: " + errorName(status));
  return 0;
}

int copy(uint32_t device, void *destination, const void *source, uint64_t bytes, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  return copyOn(d->queue, true, destination, source, bytes, error);
}

int fill(uint32_t device, void *destination, const void *pattern, uint32_t patternBytes, uint64_t count, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  return fillOn(d->queue, true, destination, pattern, patternBytes, count, error);
}

int copyAsync(uint32_t device, uint32_t stream, void *destination, const void *source, uint64_t bytes, char **error) {
  cl_command_queue queue = streamQueue(device, stream, error);
  return queue ? copyOn(queue, false, destination, source, bytes, error) : 1;
}

int fillAsync(uint32_t device, uint32_t stream, void *destination, const void *pattern, uint32_t patternBytes,
              uint64_t count, char **error) {
  cl_command_queue queue = streamQueue(device, stream, error);
  return queue ? fillOn(queue, false, destination, pattern, patternBytes, count, error) : 1;
}

int deviceTarget(uint32_t device, onepass_backend_target *target, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  *target = onepass_backend_target{};
  target->jit_target = ONEPASS_JIT_TARGET_SPIRV;
  // Sub-groups are not asked of the device yet: one work-item each (its
  // sub_group_size says 1).
  target->arch = ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS;
  target->device_library = "";
  target->device_library_missing = "";
  target->identity = d->identity.c_str();
  return 0;
}

// A SPIR device's binary is the SPIR bitcode made from the JIT's SPIR-V
// (cached, so a later run converts nothing); a SPIR-V device's is the SPIR-V.
int finalizeBinary(uint32_t device, const void *output, uint64_t size, void **binary, uint64_t *binarySize,
                   char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  std::vector<char> result;
  if (d->spir) {
    std::string message;
    if (!convertSpirvToSpir(output, size, result, message)) return rt::reportBackendError(error, message);
  } else {
    result.assign(static_cast<const char *>(output), static_cast<const char *>(output) + size);
  }
  *binary = std::malloc(result.size() ? result.size() : 1);
  if (!*binary) return rt::reportBackendError(error, "out of host memory");
  std::memcpy(*binary, result.data(), result.size());
  *binarySize = result.size();
  return 0;
}

struct Kernel {
  cl_kernel kernel = nullptr;
  cl_uint arguments = 0;
  std::mutex mutex;  // clSetKernelArg and the launch that reads them go together
};

// SPIR bitcode starts with LLVM's bitcode magic; SPIR-V with its own.
bool isSpirv(const void *binary, uint64_t size) {
  uint32_t magic = 0;
  if (size >= 4) std::memcpy(&magic, binary, 4);
  return magic == 0x07230203u;
}

int loadKernel(uint32_t device, const void *binary, uint64_t size, void **handle, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  std::vector<char> converted;
  if (d->spir && isSpirv(binary, size)) {  // the runtime's fallback when finalizing failed
    std::string message;
    if (!convertSpirvToSpir(binary, size, converted, message)) return rt::reportBackendError(error, message);
    binary = converted.data();
    size = converted.size();
  }
  cl_int status = CL_SUCCESS;
  cl_program program;
  const char *options = "";
  std::unique_lock<std::mutex> llvm15(llvm15Lock(), std::defer_lock);
  if (d->spir) llvm15.lock();  // (see SpirConverter.h)
  if (d->spir) {
    const auto *bytes = static_cast<const unsigned char *>(binary);
    size_t length = size;
    cl_int binaryStatus = CL_SUCCESS;
    program = api.clCreateProgramWithBinary(d->context, 1, &d->id, &length, &bytes, &binaryStatus, &status);
    options = "-x spir -spir-std=1.2";
  } else {
    program = api.clCreateProgramWithIL(d->context, binary, size, &status);
  }
  if (status != CL_SUCCESS)
    return rt::reportBackendError(error, std::string("'") + d->name + "' rejected the kernel's " +
                                             (d->spir ? "SPIR" : "SPIR-V") + ": " + errorName(status));
  status = api.clBuildProgram(program, 1, &d->id, options, nullptr, nullptr);
  if (status != CL_SUCCESS) {
    size_t logSize = 0;
    api.clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &logSize);
    std::string buildLog(logSize, '\0');
    api.clGetProgramBuildInfo(program, d->id, CL_PROGRAM_BUILD_LOG, logSize, buildLog.data(), nullptr);
    buildLog.resize(std::strlen(buildLog.c_str()));
    api.clReleaseProgram(program);
    return rt::reportBackendError(error, "'" + d->name + "' could not build the kernel: " + errorName(status) +
                                             (buildLog.empty() ? "" : ": " + buildLog));
  }
  if (llvm15.owns_lock()) llvm15.unlock();
  auto kernel = std::make_unique<Kernel>();
  kernel->kernel = api.clCreateKernel(program, ONEPASS_ABI_SPIRV_KERNEL, &status);
  api.clReleaseProgram(program);  // (the kernel keeps it)
  if (status != CL_SUCCESS) return rt::reportBackendError(error, "clCreateKernel failed: " + errorName(status));
  api.clGetKernelInfo(kernel->kernel, CL_KERNEL_NUM_ARGS, sizeof kernel->arguments, &kernel->arguments, nullptr);
  *handle = kernel.release();  // loaded kernels stay for the process's life
  return 0;
}

// Enqueues a launch on `queue`; `blocking`: returns once it is done, else
// once it is enqueued and flushed.
int launchOn(Device *d, cl_command_queue queue, bool blocking, const onepass_backend_launch *launch, char **error) {
  auto *kernel = static_cast<Kernel *>(launch->kernel);
  const unsigned dims = launch->dimensions;
  uint64_t range[3] = {1, 1, 1};
  for (unsigned i = 0; i < dims; ++i) range[i] = launch->global_range[i];
  if (range[0] * range[1] * range[2] == 0) return 0;
  const bool grouped = launch->local_range[0] != 0;
  std::lock_guard<std::mutex> lock(kernel->mutex);
  auto set = [&](uint32_t index, size_t size, const void *value) {
    cl_int status = api.clSetKernelArg(kernel->kernel, index, size, value);
    if (status != CL_SUCCESS)
      return rt::reportBackendError(error,
                                    "clSetKernelArg(" + std::to_string(index) + ") failed: " + errorName(status));
    return 0;
  };
  if (rt::setSpirvKernelArguments(*launch, kernel->arguments, set, error)) return 1;
  // OpenCL's dimension 0 is SYCL's last. A range kernel's groups overhang
  // its range (the kernel's work-items past it return at once).
  const cl_uint workDims = dims ? dims : 1;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  for (unsigned axis = 0; axis < workDims; ++axis) {
    const uint64_t extent = dims ? range[dims - 1 - axis] : 1;
    if (grouped) local[axis] = launch->local_range[dims - 1 - axis];
    else if (axis == 0) local[axis] = std::min<uint64_t>(extent, std::min<uint64_t>(64, d->info.max_work_group_size));
    global[axis] = (extent + local[axis] - 1) / local[axis] * local[axis];
  }
  // (The arguments are the kernel's as the launch is enqueued: the lock ends after it.)
  cl_int status =
      api.clEnqueueNDRangeKernel(queue, kernel->kernel, workDims, nullptr, global, local, 0, nullptr, nullptr);
  if (status == CL_SUCCESS) status = blocking ? api.clFinish(queue) : api.clFlush(queue);
  if (status != CL_SUCCESS) return rt::reportBackendError(error, "the kernel launch failed: " + errorName(status));
  return 0;
}

int launch(uint32_t device, const onepass_backend_launch *launch, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  return launchOn(d, d->queue, true, launch, error);
}

int launchAsync(uint32_t device, uint32_t stream, const onepass_backend_launch *launch, char **error) {
  cl_command_queue queue = streamQueue(device, stream, error);
  return queue ? launchOn(at(device), queue, false, launch, error) : 1;
}

// Markers are events of markers enqueued on a stream (in-order queues: an
// event that completes once everything before it has).
void *recordMarker(uint32_t device, uint32_t stream, uint32_t, char **error) {
  cl_command_queue queue = streamQueue(device, stream, error);
  if (!queue) return nullptr;
  cl_event event = nullptr;
  cl_int status = api.clEnqueueMarkerWithWaitList(queue, 0, nullptr, &event);
  if (status == CL_SUCCESS) status = api.clFlush(queue);
  if (status != CL_SUCCESS) {
    if (event) api.clReleaseEvent(event);
    rt::reportBackendError(error, "clEnqueueMarkerWithWaitList failed: " + errorName(status));
    return nullptr;
  }
  return event;
}

int streamWaitMarker(uint32_t device, uint32_t stream, void *marker, char **error) {
  cl_command_queue queue = streamQueue(device, stream, error);
  if (!queue) return 1;
  auto event = static_cast<cl_event>(marker);
  cl_int status = api.clEnqueueBarrierWithWaitList(queue, 1, &event, nullptr);
  if (status == CL_SUCCESS) status = api.clFlush(queue);
  if (status != CL_SUCCESS)
    return rt::reportBackendError(error, "clEnqueueBarrierWithWaitList failed: " + errorName(status));
  return 0;
}

// The marker's execution status: CL_COMPLETE, a state before it, or a
// negative error code (a command before it failed).
cl_int markerStatus(void *marker) {
  cl_int state = CL_COMPLETE;
  cl_int status = api.clGetEventInfo(static_cast<cl_event>(marker), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state,
                                     &state, nullptr);
  return status == CL_SUCCESS ? state : status;
}

int markerFailure(uint32_t device, cl_int state, char **error) {
  Device *d = at(device);
  return rt::reportBackendError(error, "work on '" + (d ? d->name : std::string("an OpenCL device")) +
                                           "' failed: " + errorName(state));
}

int queryMarker(uint32_t device, void *marker, char **error) {
  const cl_int state = markerStatus(marker);
  if (state < 0) {
    markerFailure(device, state, error);
    return -1;
  }
  return state == CL_COMPLETE ? 1 : 0;
}

int waitMarker(uint32_t device, void *marker, char **error) {
  auto event = static_cast<cl_event>(marker);
  api.clWaitForEvents(1, &event);  // (a failed command is seen in the status below)
  const cl_int state = markerStatus(marker);
  return state < 0 ? markerFailure(device, state, error) : 0;
}

int markerTime(uint32_t device, void *marker, uint64_t *nanoseconds, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  if (!d->timing) return rt::reportBackendError(error, "'" + d->name + "' has no profiling counters");
  cl_int status = CL_SUCCESS;
  const cl_ulong end = eventTime(static_cast<cl_event>(marker), CL_PROFILING_COMMAND_END, status);
  if (status != CL_SUCCESS)
    return rt::reportBackendError(error, "clGetEventProfilingInfo failed: " + errorName(status));
  *nanoseconds = d->epochHost + static_cast<uint64_t>(static_cast<int64_t>(end - d->epochDevice));
  return 0;
}

void releaseMarker(uint32_t, void *marker) {
  if (marker) api.clReleaseEvent(static_cast<cl_event>(marker));
}

int kernelLimits(uint32_t device, void *handle, onepass_kernel_limits *limits, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, "no OpenCL device " + std::to_string(device));
  auto *kernel = static_cast<Kernel *>(handle);
  size_t groupSize = 0;
  cl_ulong privateBytes = 0;
  api.clGetKernelWorkGroupInfo(kernel->kernel, d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof groupSize, &groupSize, nullptr);
  api.clGetKernelWorkGroupInfo(kernel->kernel, d->id, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof privateBytes, &privateBytes,
                               nullptr);
  limits->max_work_group_size =
      groupSize ? std::min<uint64_t>(groupSize, d->info.max_work_group_size) : d->info.max_work_group_size;
  limits->private_bytes = privateBytes;
  return 0;
}

onepass_backend table() {
  onepass_backend t = rt::synchronousBackendTable("opencl", "OnePass OpenCL");
  t.device_count = deviceCount;
  t.device_info = deviceInfo;
  t.allocate = allocate;
  t.deallocate = deallocate;
  t.copy = copy;
  t.fill = fill;
  t.device_target = deviceTarget;
  t.finalize_binary = finalizeBinary;
  t.load_kernel = loadKernel;
  t.launch = launch;
  t.kernel_limits = kernelLimits;
  t.streams = kStreams;
  t.launch_async = launchAsync;
  t.copy_async = copyAsync;
  t.fill_async = fillAsync;
  t.record_marker = recordMarker;
  t.stream_wait_marker = streamWaitMarker;
  t.query_marker = queryMarker;
  t.wait_marker = waitMarker;
  t.marker_time = markerTime;
  t.release_marker = releaseMarker;
  return t;
}

}  // namespace

}  // namespace onepass::opencl

extern "C" __attribute__((visibility("default"))) const onepass_backend *
onepass_backend_entry(const onepass_runtime_services *runtimeServices, char **why) {
  using namespace onepass::opencl;
  return onepass::rt::answerBackendEntry(
      [&](std::string &reason) -> const onepass_backend * {
        services = runtimeServices;
        if (!api.load(reason)) return nullptr;
        cl_uint platformCount = 0;
        if (api.clGetPlatformIDs(0, nullptr, &platformCount) != CL_SUCCESS || platformCount == 0) {
          reason = "no OpenCL platform is installed (no ICD in /etc/OpenCL/vendors)";
          return nullptr;
        }
        std::vector<cl_platform_id> platforms(platformCount);
        api.clGetPlatformIDs(platformCount, platforms.data(), nullptr);
        std::string converterMissing;
        const bool converterReady = spirConverterAvailable(converterMissing);
        for (cl_platform_id platform : platforms) {
          char name[256] = "";
          api.clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
          cl_uint count = 0;
          if (api.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0)
            continue;
          std::vector<cl_device_id> ids(count);
          api.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr);
          for (cl_device_id id : ids) consider(id, name, converterReady, converterMissing);
        }
        for (const std::string &line : leftOut) log(2, "device left out: " + line);
        if (devices.empty()) {
          reason = "no OpenCL device can run OnePass kernels" + (leftOut.empty() ? "" : ": " + leftOut.front());
          return nullptr;
        }
        static onepass_backend built = table();
        return &built;
      },
      why);
}
