// Queues (SYCL 2020 §4.6.5): command groups become operations on the device's
// executor. Kernels are JIT-compiled at submission, so a kernel that cannot be
// built is a synchronous sycl::exception at the submit call.
#include "Environment.h"
#include "Errors.h"
#include "KernelProvider.h"
#include "KernelRegistry.h"
#include "KernelValidation.h"
#include "Log.h"
#include "Runtime.h"
#include "Stream.h"
#include "buffer/BufferAccesses.h"
#include "buffer/RegionCopy.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>

using namespace onepass;

namespace sycl::detail {

// What an interop host task's interop_handle asks (§4.10.2).
struct interop_state {
  std::shared_ptr<device_impl> device;
  rt::AccessAddresses addresses;
  // Of a queue made from a native queue (make_queue): that queue and its
  // stream number; of a context made from a native context: that context.
  void *nativeQueue = nullptr;
  int nativeStream = -1;
  void *nativeContext = nullptr;
};

namespace {

// Everything a kernel launch needs on the executor thread, owned; one
// allocation per launch.
// A sampled image's accessor in a kernel object on a device that samples on
// texture hardware: its texture goes in the 8 bytes after the data pointer
// at `offset` (image_layout::texture, include/sycl/detail/image_texels.hpp).
struct TextureBinding {
  uint32_t offset;
  void *data;
  onepass_backend_image image;
};

struct KernelOperation final : rt::AsyncWork {
  const device_impl *device = nullptr;  // devices live as long as the process
  kernel_launch_desc desc;
  std::shared_ptr<const rt::RegisteredKernel> kernel;
  onepass_backend_launch launch{};  // filled by prepare()
  std::vector<TextureBinding> textures;

  void prepare() {
    launch.object = desc.object_data();
    launch.object_size = desc.object_size;
    launch.field_offsets = kernel->fieldOffsets.data();
    launch.field_sizes = kernel->fieldSizes.data();
    launch.field_count = static_cast<uint32_t>(kernel->fieldOffsets.size());
    launch.dimensions = desc.single_task ? 0 : static_cast<uint32_t>(desc.dimensions);
    for (int d = 0; d < 3; ++d) {
      launch.global_range[d] = desc.global_range[d];
      launch.local_range[d] = desc.local_range[d];
    }
    launch.local_memory_bytes = desc.local_memory_bytes;
    launch.work_per_item = desc.work_per_item;
  }
  void enqueue(int stream) override {
    const device_impl &dev = *device;
    char *failure = nullptr;
    for (const TextureBinding &binding : textures) {
      uint64_t texture = 0;
      if (dev.backend->image_texture(dev.index, stream < 0 ? UINT32_MAX : static_cast<uint32_t>(stream), binding.data,
                                     &binding.image, &texture, &failure))
        rt::raiseBackendError(errc::kernel, "kernel " + description() + ": its sampled image", failure);
      std::memcpy(static_cast<unsigned char *>(desc.object_data()) + binding.offset + sizeof(void *), &texture,
                  sizeof(texture));
    }
    int failed = stream < 0 ? dev.backend->launch(dev.index, &launch, &failure)
                            : dev.backend->launch_async(dev.index, static_cast<uint32_t>(stream), &launch, &failure);
    if (failed) rt::raiseBackendError(errc::kernel, "kernel " + description() + " failed", failure);
  }
  std::string describe() const override { return "kernel " + description(); }
  // Only built for error messages, not on every submission.
  std::string description() const { return rt::describeKernel(*kernel); }
};

bool texturesEnabled() {
  static const bool enabled = rt::env::imageTextures();
  return enabled;
}

// Replaces the accessor tokens in the kernel object (our own copy of it) by
// the addresses of the accessed data on the device (core/buffer/Buffer.h).
bool writesBuffer(const rt::BufferAccessList &accesses, const rt::Buffer *buffer) {
  for (const rt::BufferAccess &access : accesses)
    if (access.buffer == buffer && access.writes) return true;
  return false;
}

void bindAccessors(KernelOperation &op, const rt::AccessAddresses &addresses, const rt::BufferAccessList &accesses) {
  auto *object = static_cast<unsigned char *>(op.desc.object_data());
  for (const image::FieldView &field : op.kernel->info.fields) {
    if (field.kind != image::FieldKind::Pointer || field.size != sizeof(std::uintptr_t)) continue;
    std::uintptr_t value;
    std::memcpy(&value, object + field.offset, sizeof(value));
    if (!rt::isAccessorToken(value)) continue;
    void *data = nullptr;
    const rt::Buffer *buffer = nullptr;
    if (!addresses.resolve(value, data, &buffer))
      rt::raise(errc::kernel_argument, "kernel " + op.description() +
                                           " captures an accessor that is not bound to its command group: construct "
                                           "it with the handler, or call handler::require() on a placeholder accessor");
    std::memcpy(object + field.offset, &data, sizeof(data));
    // An image accessor (only they hold an image's tokens; its texture is
    // bound for its reads): for an unsampled image, only if the kernel does
    // not write the image, whose reads through the texture cache could miss
    // the kernel's own writes.
    if (buffer && buffer->imageDescription && op.device->backend->image_texture &&
        field.offset + sizeof(void *) + sizeof(uint64_t) <= op.desc.object_size && texturesEnabled() &&
        !(buffer->imageDescription->writable && writesBuffer(accesses, buffer)))
      op.textures.push_back({field.offset, data, *buffer->imageDescription});
  }
}

// A prepared command: its synchronous form (`work`), or on a device with
// streams, if the command can run asynchronously, its asynchronous form.
struct PreparedOperation {
  std::function<void()> work;
  std::shared_ptr<rt::AsyncWork> async;
  KernelOperation *kernel = nullptr;  // for kernels, to bind accessors (part of `event`)
  // For kernels: made with the operation, which it holds (its embeddedWork
  // when asynchronous, with `async` left empty); else made at submission.
  std::shared_ptr<event_impl> event;
  bool runsAsync() const { return async || (event && event->embeddedWork); }
};

// The operation `work` in the form the device runs.
PreparedOperation makeOperation(bool async, std::shared_ptr<rt::AsyncWork> work) {
  PreparedOperation prepared;
  if (async) prepared.async = std::move(work);
  else prepared.work = [work = std::move(work)] { work->enqueue(-1); };
  return prepared;
}

// `body(stream)` enqueues on that stream, or runs synchronously if stream < 0.
template <typename Body, typename Describe> PreparedOperation makeOperation(bool async, Body body, Describe describe) {
  return makeOperation(async, rt::makeAsyncWork(std::move(body), std::move(describe)));
}

// A kernel's event and operation, in one allocation: the event's handle owns
// both (no reference counts change to hand them around).
struct KernelNode final : event_impl {
  KernelNode() {}  // not `= default`: make_shared would zero the whole node before constructing it
  KernelOperation operation;
};

// Work-items a block of any kernel holds on the devices that spread
// hierarchical groups (NVIDIA: 64K registers a multiprocessor, at most 255 a
// thread).
constexpr std::size_t kHierarchicalAlwaysFits = 256;

void keepHierarchicalGroupsIfTheyFit(const device_impl &device, KernelOperation &op) {
  rt::KernelLimits limits;
  std::string failure;
  if (!rt::loadedKernelLimits(device, op.launch.kernel, limits, failure)) return;  // (the launch reports what is wrong)
  std::size_t items = 1;
  for (int d = 0; d < op.desc.dimensions; ++d) items *= op.desc.local_range[d];
  if (limits.maxWorkGroupSize == 0 || items <= limits.maxWorkGroupSize) return;
  ONEPASS_LOG(Info, "kernel " << op.description() << ": its parallel_for_work_group groups of " << items
                              << " work-items exceed the " << limits.maxWorkGroupSize
                              << " it takes on the device: each group runs on one work-item");
  for (int d = 0; d < op.desc.dimensions; ++d) {
    op.desc.global_range[d] /= op.desc.local_range[d];
    op.desc.local_range[d] = 1;
    op.launch.global_range[d] = op.desc.global_range[d];
    op.launch.local_range[d] = 1;
  }
}

PreparedOperation prepareKernel(queue_impl &queue, kernel_launch_desc &&desc, bool async) {
  auto node = std::make_shared<KernelNode>();
  KernelOperation *op = &node->operation;
  op->device = queue.device.get();
  // Core errors (an unknown kernel, a failed build) are synchronous SYCL errors.
  op->kernel = rt::syclCall([&] { return rt::lookupKernel(desc.host_entry); });
  op->desc = std::move(desc);
  // The command group's local accessors reserve local memory as they are
  // constructed; a kernel whose code never reaches local memory (a
  // single_task beside unused local accessors, SYCL 2020 §4.7.6.11) needs none
  // of it, so none is checked against the device or allocated.
  if (!(op->kernel->info.features & image::kFeatureLocalMemory)) op->desc.local_memory_bytes = 0;
  // A hierarchical kernel comes as groups of one work-item (the handler's
  // nd_range); a device that runs its work-groups at their size gets them.
  const bool spread = (op->kernel->info.features & image::kFeatureHierarchical) &&
                      (queue.device->properties.kernel_features & ONEPASS_KERNEL_FEATURE_HIERARCHICAL);
  std::size_t spreadItems = 1;
  if (spread)
    for (int d = 0; d < op->desc.dimensions; ++d) {
      op->desc.global_range[d] *= op->desc.hierarchical_group[d];
      op->desc.local_range[d] = op->desc.hierarchical_group[d];
      spreadItems *= op->desc.hierarchical_group[d];
    }
  op->prepare();
  validateKernelLaunch(*op->kernel, op->desc, *queue.device);
  // With a kernel bundle (§4.9.4.4): only its kernels, as it built them.
  const bool fromBundle = op->desc.bundle != nullptr;
  if (fromBundle &&
      std::find(op->desc.bundle->begin(), op->desc.bundle->end(), op->desc.host_entry) == op->desc.bundle->end())
    rt::raise(errc::kernel_not_supported, "kernel " + rt::describeKernel(*op->kernel) +
                                              " is not in the kernel bundle the command group uses "
                                              "(handler::use_kernel_bundle, SYCL 2020 §4.9.4.4)");
  const uint64_t offset[3] = {op->desc.global_offset[0], op->desc.global_offset[1], op->desc.global_offset[2]};
  op->launch.kernel = rt::syclCall([&] {
    return rt::provideKernel(*queue.device, *op->kernel, op->desc.host_entry, op->launch, fromBundle, offset);
  });
  // A kernel that takes fewer work-items a group than the hierarchical group
  // has (registers: never below 256 on NVIDIA GPUs) runs its groups on one
  // work-item each, which its lowered code also does (HierarchicalLowering.h).
  if (spread && spreadItems > kHierarchicalAlwaysFits) keepHierarchicalGroupsIfTheyFit(*queue.device, *op);
  PreparedOperation prepared;
  if (async) node->embeddedWork = op;              // run from the event
  else prepared.work = [op] { op->enqueue(-1); };  // (the executor holds the event meanwhile)
  prepared.kernel = op;
  prepared.event = std::move(node);
  return prepared;
}

void checkPointer(const void *pointer, std::size_t bytes, const char *what) {
  if (!pointer && bytes > 0)
    rt::raise(errc::invalid,
              std::string(what) + ": null pointer with a non-zero size (" + std::to_string(bytes) + " bytes)");
}

PreparedOperation prepareOperation(queue_impl &queue, command_group_desc &desc, bool async) {
  const device_impl *dev = queue.device.get();  // devices live as long as the process
  switch (desc.kind) {
  case command_kind::none: return {[] {}, {}, nullptr, {}};
  case command_kind::kernel: return prepareKernel(queue, std::move(desc.kernel), async);
  case command_kind::host_task: return {std::move(desc.host_task), {}, nullptr, {}};
  case command_kind::copy_region:
  case command_kind::fill_region:
    return {};  // see prepareRegionOperation
  // USM hints (SYCL 2020 §4.9.4.3): a node of the task graph that completes
  // once its dependencies have, with no other effect on any backend. On the
  // CPU there is nothing to migrate or advise; on CUDA, cuMemPrefetchAsync /
  // cuMemAdvise of shared allocations would need an entry in the backend
  // interface (BackendInterface.h) that it does not have yet: the hints are
  // ignored there too, which §4.8.2 allows (they only affect performance).
  case command_kind::prefetch:
  case command_kind::mem_advise: return {[] {}, {}, nullptr, {}};
  case command_kind::copy: {
    checkPointer(desc.destination, desc.bytes, "memcpy destination");
    checkPointer(desc.source, desc.bytes, "memcpy source");
    void *destination = desc.destination;
    const void *source = desc.source;
    std::size_t bytes = desc.bytes;
    return makeOperation(
        async,
        [dev, destination, source, bytes](int stream) {
          backendCopy(*dev, stream, destination, source, bytes, "memcpy");
        },
        [] { return std::string("memcpy"); });
  }
  case command_kind::fill: {
    if (desc.count > 0 && desc.pattern.size() > 0 && desc.count > SIZE_MAX / desc.pattern.size())
      rt::raise(errc::invalid, "fill: the element count overflows the address space");
    checkPointer(desc.destination, desc.count * desc.pattern.size(), "fill destination");
    void *destination = desc.destination;
    std::vector<unsigned char> pattern = std::move(desc.pattern);
    std::size_t count = desc.count;
    return makeOperation(
        async,
        [dev, destination, pattern, count](int stream) { backendFill(*dev, stream, destination, pattern, count); },
        [] { return std::string("fill"); });
  }
  }
  return {[] {}, {}, nullptr, {}};
}

// Copies and fills with accessors: their addresses are known once the
// accessed buffers have allocations on the device.
PreparedOperation prepareRegionOperation(queue_impl &queue, command_group_desc &desc,
                                         const rt::AccessAddresses &addresses, bool async) {
  auto base = [&](const region_side &side) -> char * {
    void *address = side.pointer;
    if (side.token && !addresses.resolve(side.token, address))
      rt::raise(errc::invalid, "copy/fill: the accessor is not bound to the command group");
    return static_cast<char *>(address);
  };
  const device_impl *dev = queue.device.get();
  std::shared_ptr<const void> keepAlive = desc.keep_alive;
  std::size_t elementBytes = desc.element_bytes;
  char *destination = base(desc.region_destination);
  std::vector<rt::ByteSpan> destinationRuns = rt::regionRuns(desc.region_destination, elementBytes);
  checkPointer(destination, destinationRuns.empty() ? 0 : 1, "copy destination");
  if (desc.kind == command_kind::fill_region) {
    std::vector<unsigned char> pattern = std::move(desc.pattern);
    return makeOperation(
        async,
        [dev, destination, destinationRuns, pattern, elementBytes](int stream) {
          for (const rt::ByteSpan &run : destinationRuns)
            backendFill(*dev, stream, destination + run.offsetBytes, pattern, run.sizeBytes / elementBytes);
        },
        [] { return std::string("fill"); });
  }
  const char *source = base(desc.region_source);
  std::vector<rt::ByteSpan> sourceRuns = rt::regionRuns(desc.region_source, elementBytes);
  checkPointer(source, sourceRuns.empty() ? 0 : 1, "copy source");
  std::size_t total = 0;
  for (const rt::ByteSpan &run : sourceRuns) total += run.sizeBytes;
  std::vector<rt::CopyPiece> pieces = rt::zipRuns(sourceRuns, destinationRuns, total);
  return makeOperation(
      async,
      [dev, source, destination, pieces, keepAlive](int stream) {
        for (const rt::CopyPiece &piece : pieces)
          backendCopy(*dev, stream, destination + piece.destinationOffsetBytes, source + piece.sourceOffsetBytes,
                      piece.sizeBytes, "copy");
      },
      [] { return std::string("copy"); });
}

// Forgets commands that are done, so queue::wait stays cheap: the done ones
// at the front (commands mostly finish in order), and all of them whenever
// the list has doubled since the last full sweep.
void forgetCompleted(queue_impl &queue) {
  auto &list = queue.outstanding;
  auto done = [](const std::shared_ptr<event_impl> &e) { return e->complete.load(std::memory_order_acquire); };
  while (!list.empty() && done(list.front())) list.pop_front();
  if (list.size() < queue.sweepAt) return;
  list.erase(std::remove_if(list.begin(), list.end(), done), list.end());
  queue.sweepAt = std::max<std::size_t>(64, 2 * list.size());
}

// An interop host task: the user's work, then the wait for what it enqueued
// on the device's native queue (its event completes after both).
std::function<void()> interopWork(const queue_impl &queue, std::function<void(const interop_state &)> task,
                                  rt::AccessAddresses addresses) {
  auto state = std::make_shared<interop_state>(interop_state{queue.device, std::move(addresses)});
  state->nativeQueue = queue.native;
  state->nativeStream = queue.pinnedStream;
  if (queue.context->native && queue.context->devices.front() == queue.device)
    state->nativeContext = queue.context->native;
  return [task = std::move(task), state] {
    task(*state);
    const device_impl &dev = *state->device;
    char *failure = nullptr;
    const bool failed =
        state->nativeQueue
            ? dev.backend->wait_stream &&
                  dev.backend->wait_stream(dev.index, static_cast<uint32_t>(state->nativeStream), &failure)
            : dev.backend->native_finish && dev.backend->native_finish(dev.index, &failure);
    if (failed) rt::raiseBackendError(errc::runtime, "the native work of a host task failed", failure);
  };
}

}  // namespace

void backendCopy(const device_impl &dev, int stream, void *destination, const void *source, std::size_t bytes,
                 const char *what) {
  char *error = nullptr;
  int failed = stream < 0 ? dev.backend->copy(dev.index, destination, source, bytes, &error)
                          : dev.backend->copy_async(dev.index, static_cast<uint32_t>(stream), destination, source,
                                                    bytes, &error);
  if (failed) rt::raiseBackendError(errc::runtime, std::string(what) + " failed", error);
}

void backendFill(const device_impl &dev, int stream, void *destination, const std::vector<unsigned char> &pattern,
                 std::size_t count) {
  char *error = nullptr;
  const auto bytes = static_cast<uint32_t>(pattern.size());
  int failed = stream < 0 ? dev.backend->fill(dev.index, destination, pattern.data(), bytes, count, &error)
                          : dev.backend->fill_async(dev.index, static_cast<uint32_t>(stream), destination,
                                                    pattern.data(), bytes, count, &error);
  if (failed) rt::raiseBackendError(errc::runtime, "fill failed", error);
}

void *device_native_handle(const device_impl &dev, native_object what) {
  if (!dev.backend->native_handle)
    rt::raise(errc::feature_not_supported, "device '" + dev.properties.name +
                                               "' has no native backend objects (backend interoperability needs "
                                               "the CUDA backend)");
  void *handle = nullptr;
  char *failure = nullptr;
  if (dev.backend->native_handle(dev.index, static_cast<uint32_t>(what), &handle, &failure))
    rt::raiseBackendError(errc::runtime, "asking device '" + dev.properties.name + "' for a native object failed",
                          failure);
  return handle;
}

const std::shared_ptr<device_impl> &interop_device(const interop_state &state) { return state.device; }

void *interop_native_object(const interop_state &state, native_object what) {
  if (what == native_object::queue && state.nativeQueue) return state.nativeQueue;
  if (what == native_object::context && state.nativeContext) return state.nativeContext;
  return device_native_handle(*state.device, what);
}

void *interop_native_mem(const interop_state &state, std::uintptr_t token) {
  void *address = nullptr;
  if (!state.addresses.resolve(token, address))
    rt::raise(errc::invalid, "interop_handle::get_native_mem: the accessor is not one of the host task's command "
                             "group (construct it with the handler, or call handler::require() on a placeholder)");
  return address;
}

std::shared_ptr<queue_impl> make_queue(const std::shared_ptr<context_impl> &ctx,
                                       const std::shared_ptr<device_impl> &dev, const async_handler &handler,
                                       const queue_options &options) {
  bool inContext = false;
  for (const auto &d : ctx->devices) inContext |= d == dev;
  if (!inContext) rt::raise(errc::invalid, "queue: the device is not part of the given context");
  auto queue = std::make_shared<queue_impl>();
  queue->context = ctx;
  queue->device = dev;
  queue->options = options;
  queue->errors = std::make_shared<rt::AsyncErrorSink>();
  queue->errors->handler = handler ? handler : ctx->handler;
  return queue;
}

std::shared_ptr<queue_impl> queue_from_native(const std::shared_ptr<context_impl> &ctx, void *handle,
                                              const async_handler &handler) {
  std::string why = "no device of the context has a backend with native queues (backend interoperability needs "
                    "the CUDA backend)";
  for (const auto &d : ctx->devices) {
    if (!d->backend->adopt_native_queue) continue;
    d->getExecutor();  // makes its stream tracker
    rt::StreamTracker *streams = d->streams();
    if (!streams) continue;
    uint32_t stream = 0;
    try {
      stream = streams->adoptStream(handle);
    } catch (const rt::Error &e) {
      why = e.what();
      continue;
    }
    // A native queue runs its work in order: so does the queue.
    auto queue = make_queue(ctx, d, handler, queue_options{true, false});
    queue->native = handle;
    queue->pinnedStream = static_cast<int>(stream);
    return queue;
  }
  rt::raise(errc::invalid, "make_queue: " + why);
}

void *queue_native_handle(const queue_impl &q) {
  return q.native ? q.native : device_native_handle(*q.device, native_object::queue);
}

std::shared_ptr<device_impl> get_queue_device(const queue_impl &q) { return q.device; }
std::shared_ptr<context_impl> get_queue_context(const queue_impl &q) { return q.context; }
bool queue_is_in_order(const queue_impl &q) { return q.options.in_order; }
bool queue_device_is_cpu(const queue_impl &q) { return q.device->properties.type == info::device_type::cpu; }

// On the CPU a work-item of a range reduction takes a contiguous share of the
// range, and its fixed cost (its group's combination, its index arithmetic)
// is paid per share: on the 16-core host, a sum of 2^26 floats on one thread
// took 33.8 ms as 1024 groups, 22.4 as 256 (OpenMP 21-23). Eight groups per
// thread still balance the threads (the launch is split by work).
std::size_t reduction_group_limit(const queue_impl &q) {
  if (!queue_device_is_cpu(q)) return 2048;
  return std::clamp<std::size_t>(std::size_t(rt::env::cpuThreads()) * 8, 16, 1024);
}

// Reduction cells (runtime_api.hpp). A queue keeps the cells it made; one is
// taken when its last copy is complete, otherwise a new one is made. The
// queue's reductions in flight at once bound how many there are.
void *reduction_cell_take(const queue_impl &q, const void *target, std::size_t bytes, void **staging) {
  *staging = nullptr;
  if (queue_device_is_cpu(q) || bytes == 0) return nullptr;
  const usm_kind kind = target ? usm_pointer_kind(target, *q.context) : usm_kind::shared;  // null: a buffer's
  if (kind != usm_kind::shared && kind != usm_kind::host) return nullptr;
  const bool staged = kind == usm_kind::shared;
  queue_impl::ReductionCells &pool = q.reductionCells;
  std::lock_guard<std::mutex> lock(pool.mutex);
  queue_impl::ReductionCell *found = nullptr;
  for (queue_impl::ReductionCell &cell : pool.cells) {
    if (cell.taken || cell.bytes < bytes) continue;
    if (cell.busyUntil && event_status(*cell.busyUntil) != info::event_command_status::complete) continue;
    found = &cell;
    break;
  }
  if (!found) {
    const std::size_t size = std::max<std::size_t>(bytes, 256);
    void *memory = usm_allocate(size, 256, usm_kind::device, q.device, q.context);
    if (!memory) return nullptr;  // no device memory left: the kernel uses the target itself
    pool.cells.push_back({memory, nullptr, size, false, nullptr});
    found = &pool.cells.back();
    ONEPASS_LOG(Debug, "reduction cell " << pool.cells.size() << " of " << size << " bytes made on "
                                          << q.device->properties.name);
  }
  if (staged && !found->staging) {
    found->staging = usm_allocate(found->bytes, 256, usm_kind::host, q.device, q.context);
    if (!found->staging) return nullptr;  // no pinned memory: the kernel uses the target itself
  }
  found->taken = true;
  found->busyUntil.reset();
  if (staged) *staging = found->staging;
  return found->memory;
}

void reduction_cell_give_back(const queue_impl &q, void *memory, const std::shared_ptr<event_impl> &after) {
  queue_impl::ReductionCells &pool = q.reductionCells;
  std::lock_guard<std::mutex> lock(pool.mutex);
  for (queue_impl::ReductionCell &cell : pool.cells)
    if (cell.memory == memory) {
      cell.taken = false;
      cell.busyUntil = after;
      return;
    }
}

queue_impl::~queue_impl() {
  for (ReductionCell &cell : reductionCells.cells) {
    try {
      if (cell.busyUntil) event_wait(cell.busyUntil);
      usm_free(cell.memory, *context);
      if (cell.staging) usm_free(cell.staging, *context);
    } catch (...) {  // a failed copy was reported to the queue's handler; the memory goes with the context
    }
  }
}

std::shared_ptr<event_impl> queue_submit(queue_impl &queue, command_group_desc &&desc, abi_2026_11_27c) {
  // Validation and JIT compilation happen here, on the submitting thread:
  // their errors are synchronous exceptions.
  bool onHost = desc.kind == command_kind::host_task;
  static const std::shared_ptr<device_impl> theHost;  // a null device: the host
  // An interop host task runs on the host with its device accessors' data on
  // the device (its target::host_task accessors' data stay on the host).
  const bool interop = onHost && desc.interop_task;
  const std::shared_ptr<device_impl> &runner = onHost && !interop ? theHost : queue.device;
  rt::Executor &executor = onHost ? rt::hostExecutor() : queue.device->getExecutor();
  rt::StreamTracker *streams = onHost ? nullptr : queue.device->streams();
  PreparedOperation prepared = prepareOperation(queue, desc, streams != nullptr);
  if (!desc.streams.empty() && desc.kind == command_kind::kernel)
    rt::syclCall([&] { streamsPrepare(desc.streams, desc.kernel); });
  // The accessors' requirements as the core sees them (none for most USM code).
  const rt::BufferAccessList accesses = rt::coreAccesses(desc.accesses);
  rt::AccessAddresses addresses;
  if (!accesses.empty()) addresses = rt::syclCall([&] { return rt::allocateAccesses(accesses, runner); });
  // A kernel without accessors still has its fields checked for accessor
  // tokens (an accessor not bound to the command group).
  if (prepared.kernel) bindAccessors(*prepared.kernel, addresses, accesses);
  if (desc.kind == command_kind::copy_region || desc.kind == command_kind::fill_region)
    prepared = prepareRegionOperation(queue, desc, addresses, streams != nullptr);
  if (interop) prepared.work = interopWork(queue, std::move(desc.interop_task), std::move(addresses));
  const bool async = prepared.runsAsync();

  std::shared_ptr<event_impl> event = prepared.event ? std::move(prepared.event) : std::make_shared<event_impl>();
  // Set before anyone can see the event: a node on this device's streams.
  if (async) event->tracker = streams;
  event->errors = queue.errors;
  event->backendKind = queue.device->properties.backend_kind;
  event->device = queue.device;
  event->profiling = queue.options.enable_profiling;
  if (event->profiling) event->submitTime = rt::nowNanoseconds();
  event->dependencies.assign(std::make_move_iterator(desc.dependencies.begin()),
                             std::make_move_iterator(desc.dependencies.end()));
  {
    std::lock_guard<std::mutex> lock(queue.mutex);
    // Entered under the queue's lock: an in-order queue's commands enter the
    // graph in their order.
    bool runAsync = async;
    std::vector<std::function<void()>> finishing;
    if (!accesses.empty())
      finishing = rt::syclCall([&] { return rt::enterAccesses(accesses, runner, event, queue.errors); });
    if (!desc.streams.empty() && desc.kind == command_kind::kernel)  // printed before the event completes
      finishing.push_back([kernelStreams = std::move(desc.streams)] { streamsPrint(kernelStreams); });
    if (!finishing.empty()) {
      // Host-side steps after the command: it runs to completion on a lane.
      if (runAsync) {
        rt::AsyncWork *work = prepared.async ? prepared.async.get() : event->embeddedWork;
        prepared.work = [work, keep = std::move(prepared.async)] { work->enqueue(-1); };
      }
      runAsync = false;
      prepared.work = [work = std::move(prepared.work), finishing = std::move(finishing)] {
        work();
        for (const auto &step : finishing) step();
      };
    }
    if (queue.options.in_order && queue.last && !queue.last->complete.load(std::memory_order_acquire)) {
      // The previous command, if not done. On this device's streams, once
      // enqueued, the stream's order is enough: the node goes behind it.
      const event_impl &last = *queue.last;
      if (runAsync && last.tracker == streams && last.enqueued.load(std::memory_order_acquire))
        event->streamHint = static_cast<int>(last.stream);
      else event->dependencies.push_back(queue.last);
    }
    queue.last = event;
    // An in-order queue's last command completes after all the others: it is
    // all queue::wait needs.
    if (!queue.options.in_order) {
      forgetCompleted(queue);
      queue.outstanding.push_back(event);
    }
    // Without accesses nobody else can know the event yet (we hold the
    // queue's lock): the stream tracker may skip the event's lock.
    if (runAsync) event->pinnedStream = queue.pinnedStream;
    if (runAsync) executor.submitAsync(event, std::move(prepared.async), desc.accesses.empty());
    else executor.submit(event, std::move(prepared.work));
  }
  return event;
}

void queue_wait(queue_impl &queue) {
  std::vector<std::shared_ptr<event_impl>> pending;
  {
    std::lock_guard<std::mutex> lock(queue.mutex);
    if (queue.options.in_order) {
      if (queue.last) pending.push_back(queue.last);
    } else {
      pending.assign(queue.outstanding.begin(), queue.outstanding.end());
    }
  }
  for (const auto &event : pending) event->wait();
}

void queue_throw_asynchronous(queue_impl &queue) { queue.errors->deliver(); }

}  // namespace sycl::detail
