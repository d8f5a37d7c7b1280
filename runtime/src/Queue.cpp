// Queues (SYCL 2020 §4.6.5): command groups become operations on the device's
// executor. Kernels are JIT-compiled at submission, so a kernel that cannot be
// built is a synchronous sycl::exception at the submit call.
#include "Errors.h"
#include "KernelRegistry.h"
#include "Log.h"
#include "Runtime.h"
#include "buffer/BufferRuntime.h"
#include "buffer/RegionCopy.h"

#include <cstdlib>
#include <cstring>

using namespace onepass;

namespace sycl::detail {

namespace {

std::string kernelDescription(const rt::RegisteredKernel &kernel) {
  std::string text = "'" + std::string(kernel.info.displayName) + "'";
  if (!kernel.info.sourceFile.empty())
    text += " (" + std::string(kernel.info.sourceFile) + ":" + std::to_string(kernel.info.line) + ")";
  return text;
}

// Everything a kernel launch needs on the executor thread, owned.
struct KernelOperation {
  std::shared_ptr<device_impl> device;
  kernel_launch_desc desc;
  rt::RegisteredKernel kernel;
  std::string symbol;  // NUL-terminated copy of kernel.info.symbol
  std::vector<uint32_t> fieldOffsets;

  onepass_backend_launch launch() const {
    onepass_backend_launch l{};
    l.host_entry = desc.host_entry;
    l.image_id = kernel.imageId;
    l.image = kernel.image;
    l.image_size = kernel.imageSize;
    l.kernel_symbol = symbol.c_str();
    l.object = desc.object.get();
    l.object_size = desc.object_size;
    l.field_offsets = fieldOffsets.data();
    l.field_count = static_cast<uint32_t>(fieldOffsets.size());
    l.dimensions = desc.single_task ? 0 : static_cast<uint32_t>(desc.dimensions);
    for (int d = 0; d < 3; ++d) l.global_range[d] = desc.global_range[d];
    return l;
  }
  // Only built for error messages, not on every submission.
  std::string description() const { return kernelDescription(kernel); }
};

// Replaces the accessor tokens in the kernel object (our own copy of it) by
// the addresses of the accessed data on the device (buffer/BufferRuntime.h).
void bindAccessors(KernelOperation &op, const rt::AccessAddresses &addresses) {
  auto *object = static_cast<unsigned char *>(const_cast<void *>(op.desc.object.get()));
  for (const image::FieldView &field : op.kernel.info.fields) {
    if (field.kind != image::FieldKind::Pointer || field.size != sizeof(std::uintptr_t)) continue;
    std::uintptr_t value;
    std::memcpy(&value, object + field.offset, sizeof(value));
    if (!rt::isAccessorToken(value)) continue;
    void *data = nullptr;
    if (!addresses.resolve(value, data))
      rt::raise(errc::kernel_argument, "kernel " + op.description() +
                                           " captures an accessor that is not bound to its command group: construct "
                                           "it with the handler, or call handler::require() on a placeholder accessor");
    std::memcpy(object + field.offset, &data, sizeof(data));
  }
}

struct PreparedOperation {
  std::function<void()> work;
  std::shared_ptr<KernelOperation> kernel;  // for kernels: to bind accessors
};

PreparedOperation prepareKernel(queue_impl &queue, kernel_launch_desc &&desc) {
  auto op = std::make_shared<KernelOperation>();
  op->device = queue.device;
  op->kernel = rt::lookupKernel(desc.host_entry);
  op->symbol = std::string(op->kernel.info.symbol);
  for (const image::FieldView &field : op->kernel.info.fields) op->fieldOffsets.push_back(field.offset);
  op->desc = std::move(desc);
  const image::KernelView &info = op->kernel.info;

  if (op->desc.object_size != info.objectSize)
    rt::raise(errc::kernel_argument, "kernel " + op->description() + ": the host passes a " +
                                         std::to_string(op->desc.object_size) + "-byte kernel object but the device code expects " +
                                         std::to_string(info.objectSize) + " bytes (stale object file? rebuild it)");
  if ((info.features & image::kFeatureFp64) &&
      std::find(queue.device->properties.aspects.begin(), queue.device->properties.aspects.end(), aspect::fp64) ==
          queue.device->properties.aspects.end())
    rt::raise(errc::kernel_not_supported, "kernel " + op->description() + " uses double precision, which device '" +
                                              queue.device->properties.name + "' does not support");

  onepass_backend_launch launch = op->launch();
  char *error = nullptr;
  if (queue.device->backend->prepare_kernel(queue.device->index, &launch, &error) != 0)
    rt::raiseBackendError(errc::build, "cannot build kernel " + op->description() + " for device '" +
                                       queue.device->properties.name + "'", error);
  return {[op] {
            onepass_backend_launch l = op->launch();
            char *failure = nullptr;
            if (op->device->backend->launch(op->device->index, &l, &failure) != 0)
              rt::raiseBackendError(errc::kernel, "kernel " + op->description() + " failed", failure);
          },
          op};
}

void checkPointer(const void *pointer, std::size_t bytes, const char *what) {
  if (!pointer && bytes > 0)
    rt::raise(errc::invalid, std::string(what) + ": null pointer with a non-zero size (" + std::to_string(bytes) + " bytes)");
}

PreparedOperation prepareOperation(queue_impl &queue, command_group_desc &desc) {
  std::shared_ptr<device_impl> dev = queue.device;
  switch (desc.kind) {
  case command_kind::none: return {[] {}, nullptr};
  case command_kind::kernel: return prepareKernel(queue, std::move(desc.kernel));
  case command_kind::host_task: return {std::move(desc.host_task), nullptr};
  case command_kind::copy_region:
  case command_kind::fill_region: return {nullptr, nullptr};  // see prepareRegionOperation
  case command_kind::copy: {
    checkPointer(desc.destination, desc.bytes, "memcpy destination");
    checkPointer(desc.source, desc.bytes, "memcpy source");
    void *destination = desc.destination;
    const void *source = desc.source;
    std::size_t bytes = desc.bytes;
    return {[dev, destination, source, bytes] {
              char *error = nullptr;
              if (dev->backend->copy(dev->index, destination, source, bytes, &error) != 0)
                rt::raiseBackendError(errc::runtime, "memcpy failed", error);
            },
            nullptr};
  }
  case command_kind::fill: {
    if (desc.count > 0 && desc.pattern.size() > 0 && desc.count > SIZE_MAX / desc.pattern.size())
      rt::raise(errc::invalid, "fill: the element count overflows the address space");
    checkPointer(desc.destination, desc.count * desc.pattern.size(), "fill destination");
    void *destination = desc.destination;
    std::vector<unsigned char> pattern = std::move(desc.pattern);
    std::size_t count = desc.count;
    return {[dev, destination, pattern, count] {
              char *error = nullptr;
              if (dev->backend->fill(dev->index, destination, pattern.data(), static_cast<uint32_t>(pattern.size()),
                                     count, &error) != 0)
                rt::raiseBackendError(errc::runtime, "fill failed", error);
            },
            nullptr};
  }
  }
  return {[] {}, nullptr};
}

// Copies and fills with accessors: their addresses are known once the
// accessed buffers have allocations on the device.
std::function<void()> prepareRegionOperation(queue_impl &queue, command_group_desc &desc,
                                             const rt::AccessAddresses &addresses) {
  auto base = [&](const region_side &side) -> char * {
    void *address = side.pointer;
    if (side.token && !addresses.resolve(side.token, address))
      rt::raise(errc::invalid, "copy/fill: the accessor is not bound to the command group");
    return static_cast<char *>(address);
  };
  std::shared_ptr<device_impl> dev = queue.device;
  std::shared_ptr<const void> keepAlive = desc.keep_alive;
  std::size_t elementBytes = desc.element_bytes;
  char *destination = base(desc.region_destination);
  std::vector<rt::ByteSpan> destinationRuns = rt::regionRuns(desc.region_destination, elementBytes);
  checkPointer(destination, destinationRuns.empty() ? 0 : 1, "copy destination");
  if (desc.kind == command_kind::fill_region) {
    std::vector<unsigned char> pattern = std::move(desc.pattern);
    return [dev, destination, destinationRuns, pattern, elementBytes] {
      for (const rt::ByteSpan &run : destinationRuns) {
        char *error = nullptr;
        if (dev->backend->fill(dev->index, destination + run.offsetBytes, pattern.data(),
                               static_cast<uint32_t>(pattern.size()), run.sizeBytes / elementBytes, &error) != 0)
          rt::raiseBackendError(errc::runtime, "fill failed", error);
      }
    };
  }
  const char *source = base(desc.region_source);
  std::vector<rt::ByteSpan> sourceRuns = rt::regionRuns(desc.region_source, elementBytes);
  checkPointer(source, sourceRuns.empty() ? 0 : 1, "copy source");
  std::size_t total = 0;
  for (const rt::ByteSpan &run : sourceRuns) total += run.sizeBytes;
  std::vector<rt::CopyPiece> pieces = rt::zipRuns(sourceRuns, destinationRuns, total);
  return [dev, source, destination, pieces, keepAlive] {
    for (const rt::CopyPiece &piece : pieces) {
      char *error = nullptr;
      if (dev->backend->copy(dev->index, destination + piece.destinationOffsetBytes, source + piece.sourceOffsetBytes,
                             piece.sizeBytes, &error) != 0)
        rt::raiseBackendError(errc::runtime, "copy failed", error);
    }
  };
}

}  // namespace

std::shared_ptr<queue_impl> make_queue(const std::shared_ptr<context_impl> &ctx, const std::shared_ptr<device_impl> &dev,
                                       const async_handler &handler, const queue_options &options) {
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

std::shared_ptr<device_impl> get_queue_device(const queue_impl &q) { return q.device; }
std::shared_ptr<context_impl> get_queue_context(const queue_impl &q) { return q.context; }
bool queue_is_in_order(const queue_impl &q) { return q.options.in_order; }

std::shared_ptr<event_impl> queue_submit(queue_impl &queue, command_group_desc &&desc) {
  // Validation and JIT compilation happen here, on the submitting thread:
  // their errors are synchronous exceptions.
  PreparedOperation prepared = prepareOperation(queue, desc);
  bool onHost = desc.kind == command_kind::host_task;
  std::shared_ptr<device_impl> runner = onHost ? nullptr : queue.device;
  if (!desc.accesses.empty() || prepared.kernel) {
    rt::AccessAddresses addresses = rt::allocateAccesses(desc.accesses, runner);
    if (prepared.kernel) bindAccessors(*prepared.kernel, addresses);
    if (desc.kind == command_kind::copy_region || desc.kind == command_kind::fill_region)
      prepared.work = prepareRegionOperation(queue, desc, addresses);
  }

  auto event = std::make_shared<event_impl>();
  event->errors = queue.errors;
  event->profiling = queue.options.enable_profiling;
  if (event->profiling) event->submitTime = rt::nowNanoseconds();
  event->dependencies = std::move(desc.dependencies);
  {
    std::lock_guard<std::mutex> lock(queue.mutex);
    // Entered under the queue's lock: an in-order queue's commands enter the
    // graph in their order.
    if (!desc.accesses.empty()) {
      std::vector<std::function<void()>> finishing = rt::enterAccesses(desc.accesses, runner, event, queue.errors);
      if (!finishing.empty())
        prepared.work = [work = std::move(prepared.work), finishing = std::move(finishing)] {
          work();
          for (const auto &step : finishing) step();
        };
    }
    if (queue.options.in_order && queue.last) event->dependencies.push_back(queue.last);
    queue.last = event;
    // Forget commands that are done, so queue::wait stays cheap.
    auto &list = queue.outstanding;
    list.erase(std::remove_if(list.begin(), list.end(),
                              [](const std::shared_ptr<event_impl> &e) {
                                return event_status(*e) == info::event_command_status::complete;
                              }),
               list.end());
    list.push_back(event);
    rt::Executor &executor = onHost ? rt::hostExecutor() : queue.device->getExecutor();
    executor.submit(event, std::move(prepared.work));
  }
  return event;
}

void queue_wait(queue_impl &queue) {
  std::vector<std::shared_ptr<event_impl>> pending;
  {
    std::lock_guard<std::mutex> lock(queue.mutex);
    pending = queue.outstanding;
  }
  for (const auto &event : pending) event->wait();
}

void queue_throw_asynchronous(queue_impl &queue) { queue.errors->deliver(); }

}  // namespace sycl::detail
