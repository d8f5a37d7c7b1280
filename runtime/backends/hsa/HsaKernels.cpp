// The HSA backend's kernels: the JIT's code object loaded into an HSA
// executable, and launches as AQL kernel dispatch packets on the device's
// queue (HSA Platform System Architecture §2.9; AMDGPU's kernarg ABI in
// LLVM's AMDGPUUsage).
#include "HsaDevice.h"

#include "BackendErrors.h"
#include "onepass/jit/jit_api.h"
#include "sycl/detail/onepass_abi.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace onepass::hsa {

namespace {

struct Kernel {
  hsa_executable_t executable{};
  uint64_t object = 0;  // the kernel descriptor's address, for the packet
  uint32_t kernargBytes = 0, groupBytes = 0, privateBytes = 0;
};

std::string kernelSymbol() { return std::string(ONEPASS_ABI_AMDGCN_KERNEL) + ".kd"; }

}  // namespace

int loadKernel(uint32_t device, const void *binary, uint64_t size, void **handle, char **error) {
  Device *d = deviceAt(device);
  if (!d) return rt::reportBackendError(error, "no HSA device " + std::to_string(device));
  // The reader reads `binary` where it lies; loading copies the code object
  // into the executable, after which the reader goes.
  hsa_code_object_reader_t reader{};
  hsa_status_t status = api.hsa_code_object_reader_create_from_memory(binary, size, &reader);
  if (status != HSA_STATUS_SUCCESS)
    return rt::reportBackendError(error, failed("hsa_code_object_reader_create_from_memory", status));
  auto kernel = std::make_unique<Kernel>();
  status = api.hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                         &kernel->executable);
  if (status != HSA_STATUS_SUCCESS) {
    api.hsa_code_object_reader_destroy(reader);
    return rt::reportBackendError(error, failed("hsa_executable_create_alt", status));
  }
  status = api.hsa_executable_load_agent_code_object(kernel->executable, d->agent, reader, nullptr, nullptr);
  api.hsa_code_object_reader_destroy(reader);
  if (status != HSA_STATUS_SUCCESS) {
    api.hsa_executable_destroy(kernel->executable);
    return rt::reportBackendError(error, "'" + d->agentName + "' rejected the kernel's code object: " +
                                             failed("hsa_executable_load_agent_code_object", status));
  }
  status = api.hsa_executable_freeze(kernel->executable, nullptr);
  if (status != HSA_STATUS_SUCCESS) {
    api.hsa_executable_destroy(kernel->executable);
    return rt::reportBackendError(error, failed("hsa_executable_freeze", status));
  }
  hsa_executable_symbol_t symbol{};
  const std::string name = kernelSymbol();
  status = api.hsa_executable_get_symbol_by_name(kernel->executable, name.c_str(), &d->agent, &symbol);
  if (status != HSA_STATUS_SUCCESS) {
    api.hsa_executable_destroy(kernel->executable);
    return rt::reportBackendError(error, "the code object has no kernel '" + name +
                                             "': " + failed("hsa_executable_get_symbol_by_name", status));
  }
  struct {
    hsa_executable_symbol_info_t what;
    void *value;
    const char *name;
  } queries[] = {
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel->object, "kernel object"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernel->kernargBytes, "kernarg segment size"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &kernel->groupBytes, "group segment size"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &kernel->privateBytes, "private segment size"},
  };
  for (const auto &query : queries) {
    status = api.hsa_executable_symbol_get_info(symbol, query.what, query.value);
    if (status != HSA_STATUS_SUCCESS) {
      api.hsa_executable_destroy(kernel->executable);
      return rt::reportBackendError(error, std::string("reading the kernel's ") + query.name + ": " +
                                               failed("hsa_executable_symbol_get_info", status));
    }
  }
  *handle = kernel.release();  // loaded kernels stay for the process's life
  return 0;
}

namespace {

// The kernarg segment of jit_api.h's AMDGCN entry. Its parameters are the
// kernel's fields, then a range kernel's global range (one u64 per dimension,
// SYCL order). A field is an integer, a floating-point value or a pointer of
// 1, 2, 4 or 8 bytes (the clang plugin flattens the kernel object into such
// fields, common/image), and the entry takes each as the LLVM type of that
// size (jit/src/GridEntry.cpp; pointers become global pointers, 8 bytes). The
// AMDGPU ABI lays explicit kernel arguments out in order, each at its ABI
// alignment, which for these types is their size: field i lies at the first
// multiple of its size after field i-1. Hidden arguments would follow; the
// entry reads the dispatch packet instead, and the segment is zeroed.
int writeKernarg(const Kernel &kernel, const onepass_backend_launch &launch, char *kernarg, char **error) {
  std::memset(kernarg, 0, kernel.kernargBytes);
  uint64_t end = 0;
  auto place = [&](const void *value, uint64_t size) {
    const uint64_t alignment = size >= 8 ? 8 : size == 0 ? 1 : size;  // (1, 2, 4 or 8)
    const uint64_t offset = (end + alignment - 1) / alignment * alignment;
    end = offset + size;
    if (end <= kernel.kernargBytes) std::memcpy(kernarg + offset, value, size);
  };
  const auto *object = static_cast<const char *>(launch.object);
  for (uint32_t f = 0; f < launch.field_count; ++f) place(object + launch.field_offsets[f], launch.field_sizes[f]);
  const bool grouped = launch.local_range[0] != 0;
  if (!grouped)
    for (uint32_t dim = 0; dim < launch.dimensions; ++dim) place(&launch.global_range[dim], sizeof(uint64_t));
  if (end > kernel.kernargBytes)
    return rt::reportBackendError(error, "internal error: the launch's arguments take " + std::to_string(end) +
                                             " bytes, the kernel's kernarg segment " +
                                             std::to_string(kernel.kernargBytes));
  return 0;
}

// The device's kernarg buffer, grown to `bytes` (launchMutex held).
bool reserveKernarg(Device &d, uint64_t bytes, std::string &error) {
  if (bytes <= d.kernargBytes && d.kernarg) return true;
  if (d.kernarg) freeToPool(d.kernarg);
  d.kernarg = nullptr;
  d.kernargBytes = 0;
  const uint64_t size = std::max<uint64_t>(bytes, 4096);
  void *buffer = allocateFromPool(d.kernargPool, 16, size, 16, error);
  if (!buffer) return false;
  hsa_status_t status = api.hsa_amd_agents_allow_access(1, &d.agent, nullptr, buffer);
  if (status != HSA_STATUS_SUCCESS) {
    freeToPool(buffer);
    error = failed("hsa_amd_agents_allow_access", status);
    return false;
  }
  d.kernarg = buffer;
  d.kernargBytes = size;
  return true;
}

}  // namespace

namespace {

// A launch's dispatch packet, but for its kernarg address and completion
// signal.
struct Dispatch {
  const Kernel *kernel = nullptr;
  uint16_t group[3] = {1, 1, 1};
  uint32_t grid[3] = {1, 1, 1};
  uint32_t groupBytes = 0;
  uint16_t setup = 0;
  bool empty = false;  // no work-items: nothing to dispatch
};

int planDispatch(const Device &d, const onepass_backend_launch &launch, Dispatch &out, char **error) {
  out.kernel = static_cast<const Kernel *>(launch.kernel);
  const unsigned dims = launch.dimensions;
  uint64_t range[3] = {1, 1, 1};
  for (unsigned i = 0; i < dims; ++i) range[i] = launch.global_range[i];
  out.empty = range[0] * range[1] * range[2] == 0;
  if (out.empty) return 0;
  // The packet's axis x is SYCL's last dimension. An nd_range kernel's
  // work-groups are its own; a range kernel's are up to 256 work-items along
  // x (four wave64 wavefronts), and its grid may overhang the range (the
  // entry's work-items past it return at once).
  const bool grouped = launch.local_range[0] != 0;
  const uint64_t rangeGroup = std::min<uint64_t>(256, d.info.max_work_group_size ? d.info.max_work_group_size : 256);
  for (unsigned axis = 0; axis < 3; ++axis) {
    const uint64_t extent = axis < dims ? range[dims - 1 - axis] : 1;
    uint64_t group = 1;
    if (grouped && axis < dims) group = launch.local_range[dims - 1 - axis];
    else if (!grouped && axis == 0) group = std::min(extent, rangeGroup);
    const uint64_t grid = (extent + group - 1) / group * group;
    if (group > UINT16_MAX || grid > UINT32_MAX)
      return rt::reportBackendError(error, "the launch's range is too large for an HSA dispatch (at most 2^32 - 1 "
                                           "work-items and 65535 per work-group along each axis)");
    out.group[axis] = static_cast<uint16_t>(group);
    out.grid[axis] = static_cast<uint32_t>(grid);
  }
  const uint64_t groupBytes = out.kernel->groupBytes + launch.local_memory_bytes;
  if (d.info.local_mem_bytes && groupBytes > d.info.local_mem_bytes)
    return rt::reportBackendError(error, "the kernel needs " + std::to_string(groupBytes) +
                                             " bytes of local memory per "
                                             "work-group, '" +
                                             d.agentName + "' has " + std::to_string(d.info.local_mem_bytes));
  out.groupBytes = static_cast<uint32_t>(groupBytes);
  out.setup = static_cast<uint16_t>((dims ? dims : 1) << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  return 0;
}

// The packet's body (all but the header, which goes last).
void writeDispatch(hsa_queue_t *queue, uint64_t index, const Dispatch &dispatch, void *kernarg,
                   hsa_signal_t completion) {
  auto *packet = static_cast<hsa_kernel_dispatch_packet_t *>(queue->base_address) + index % queue->size;
  packet->workgroup_size_x = dispatch.group[0];
  packet->workgroup_size_y = dispatch.group[1];
  packet->workgroup_size_z = dispatch.group[2];
  packet->reserved0 = 0;
  packet->grid_size_x = dispatch.grid[0];
  packet->grid_size_y = dispatch.grid[1];
  packet->grid_size_z = dispatch.grid[2];
  packet->private_segment_size = dispatch.kernel->privateBytes;
  packet->group_segment_size = dispatch.groupBytes;
  packet->kernel_object = dispatch.kernel->object;
  packet->kernarg_address = kernarg;
  packet->reserved2 = 0;
  packet->completion_signal = completion;
}

}  // namespace

int launchKernel(uint32_t device, const onepass_backend_launch *launch, char **error) {
  Device *d = deviceAt(device);
  if (!d) return rt::reportBackendError(error, "no HSA device " + std::to_string(device));
  Dispatch dispatch;
  if (planDispatch(*d, *launch, dispatch, error)) return 1;
  if (dispatch.empty) return 0;
  const Kernel &kernel = *dispatch.kernel;

  std::lock_guard<std::mutex> lock(d->launchMutex);
  // A queue that reported an error takes no more packets (HSA: it is
  // inactive): every later launch fails with the first error.
  if (d->queueError.load() != HSA_STATUS_SUCCESS) return rt::reportBackendError(error, stoppedMessage(*d));
  std::string message;
  if (!reserveKernarg(*d, kernel.kernargBytes, message)) return rt::reportBackendError(error, message);
  if (writeKernarg(kernel, *launch, static_cast<char *>(d->kernarg), error)) return 1;

  hsa_queue_t *queue = d->queue;
  const uint64_t index = api.hsa_queue_add_write_index_scacq_screl(queue, 1);
  while (index - api.hsa_queue_load_read_index_scacquire(queue) >= queue->size) {
  }  // (one launch at a time: the queue is empty but for the packets before it)
  api.hsa_signal_store_relaxed(d->completion, 1);
  writeDispatch(queue, index, dispatch, d->kernarg, d->completion);
  submitPacket(queue, index, orderedHeader(HSA_PACKET_TYPE_KERNEL_DISPATCH), dispatch.setup);

  while (api.hsa_signal_wait_scacquire(d->completion, HSA_SIGNAL_CONDITION_LT, 1, kWaitSliceNs,
                                       HSA_WAIT_STATE_BLOCKED) >= 1) {
    if (hsa_status_t status = d->queueError.load(); status != HSA_STATUS_SUCCESS)
      return rt::reportBackendError(error,
                                    "the kernel failed on '" + d->agentName + "': " + failed("the HSA queue", status));
  }
  return 0;
}

// On a stream: the kernel arguments go to the kernarg slot of the packet's
// index, which is free again once that packet is done (reservePacket keeps
// the queue from wrapping onto a slot still in use). A kernarg segment larger
// than a slot launches synchronously after the stream's work.
int launchAsync(uint32_t device, uint32_t stream, const onepass_backend_launch *launch, char **error) {
  Device *d = deviceAt(device);
  if (!d || stream >= kStreams) return rt::reportBackendError(error, "no HSA device or stream");
  Dispatch dispatch;
  if (planDispatch(*d, *launch, dispatch, error)) return 1;
  if (dispatch.empty) return 0;
  if (dispatch.kernel->kernargBytes > kKernargSlotBytes)
    return finishStream(*d, stream, error) || launchKernel(device, launch, error);
  Stream &s = d->streams[stream];
  std::lock_guard<std::mutex> lock(s.mutex);
  std::string message;
  uint64_t index = 0;
  if (!reservePacket(*d, s, index, message)) return rt::reportBackendError(error, message);
  char *kernarg = s.kernargs + (index % s.queue->size) * kKernargSlotBytes;
  if (writeKernarg(*dispatch.kernel, *launch, kernarg, error)) {
    // The slot is taken: the packet becomes a no-op barrier.
    auto *packet = static_cast<hsa_barrier_and_packet_t *>(s.queue->base_address) + index % s.queue->size;
    std::memset(reinterpret_cast<char *>(packet) + 4, 0, sizeof *packet - 4);
    submitPacket(s.queue, index, orderedHeader(HSA_PACKET_TYPE_BARRIER_AND), 0);
    return 1;
  }
  writeDispatch(s.queue, index, dispatch, kernarg, hsa_signal_t{0});
  submitPacket(s.queue, index, orderedHeader(HSA_PACKET_TYPE_KERNEL_DISPATCH), dispatch.setup);
  return 0;
}

int kernelLimits(uint32_t device, void *handle, onepass_kernel_limits *limits, char **error) {
  Device *d = deviceAt(device);
  if (!d) return rt::reportBackendError(error, "no HSA device " + std::to_string(device));
  const auto &kernel = *static_cast<const Kernel *>(handle);
  limits->max_work_group_size = d->info.max_work_group_size;
  limits->private_bytes = kernel.privateBytes;
  return 0;
}

}  // namespace onepass::hsa
