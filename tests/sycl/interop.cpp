// Backend interoperability (SYCL 2020 §4.5.1, §4.10.2): host tasks taking an
// interop_handle, get_native, on the CPU device and, where one is present
// (the real driver, or tests/fake_cuda in CI), on a CUDA device: native work
// enqueued on the interop stream fills a buffer's device memory and is
// complete when the host task's event is.
#include "check.h"

#include <dlfcn.h>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

// Kernel function interoperability: a device function taking the native
// pointers of an accessor and a local accessor (on whichever device runs it).
int addOne(const int *in) { return *in + 1; }
int storeTwice(int *scratch, int value) {
  scratch[0] = 2 * value;
  return scratch[0];
}

void kernelInterop(sycl::queue &q, const char *where) {
  constexpr int n = 8;
  std::vector<int> in(n), out(n, 0);
  for (int i = 0; i < n; ++i) in[i] = 10 * i;
  {
    sycl::buffer<int> inBuf(in.data(), sycl::range<1>(n)), outBuf(out.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {
      auto a = inBuf.get_access<sycl::access_mode::read>(h);
      sycl::accessor o(outBuf, h, sycl::write_only);
      sycl::local_accessor<int, 1> scratch(sycl::range<1>(n), h);
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
      sycl::accessor<int, 1, sycl::access_mode::read_write, sycl::target::local> legacy(sycl::range<1>(n), h);
#pragma clang diagnostic pop
      h.parallel_for(sycl::nd_range<1>(n, n), [=](sycl::nd_item<1> it) {
        const std::size_t i = it.get_global_id(0);
        int *native = sycl::get_native<sycl::backend::cuda>(a);
        static_assert(std::is_same_v<decltype(native), int *>, "a read accessor of int gives an int *");
        int *local = sycl::get_native<sycl::backend::cuda>(scratch);
        int *old = sycl::get_native<sycl::backend::cuda>(legacy);  // target::local (deprecated)
        old[i] = 5;
        o[i] = storeTwice(local + i, addOne(native + i)) + (legacy[i] == 5 ? 0 : 1000);
      });
    });
  }
  onepass_test::checkArray((std::string(where) + ": get_native of accessors in a kernel").c_str(), n, out.data(),
                           [](std::size_t i) { return 2 * (10 * static_cast<int>(i) + 1); });
}

void cpuInterop(const sycl::device &cpu) {
  sycl::queue q{cpu};
  constexpr int n = 32;
  sycl::buffer<int> device{sycl::range<1>(n)}, host{sycl::range<1>(n)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor d(device, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { d[i] = static_cast<int>(i[0]); });
  });
  sycl::backend seen = sycl::backend::cuda;
  bool mismatch = false;
  q.submit([&](sycl::handler &h) {
    sycl::accessor d(device, h, sycl::read_write);
    sycl::accessor o(host, h, sycl::write_only_host_task, sycl::no_init);
    h.host_task([=, &seen, &mismatch](sycl::interop_handle ih) {
      seen = ih.get_backend();
      int *data = ih.get_native_mem<sycl::backend::ext_onepass_cpu>(d);  // the CPU device's memory: the host's
      for (int i = 0; i < n; ++i) {
        data[i] *= 3;
        o[i] = data[i] + 1;
      }
      try {
        (void)ih.get_native_queue<sycl::backend::cuda>();
      } catch (const sycl::exception &e) {
        mismatch = e.code() == sycl::errc::backend_mismatch;
      }
    });
  });
  q.wait_and_throw();
  checkEqual("CPU: interop_handle::get_backend", static_cast<int>(sycl::backend::ext_onepass_cpu),
             static_cast<int>(seen));
  check("CPU: get_native_queue<cuda> is errc::backend_mismatch", mismatch);
  std::vector<int> d = onepass_test::contents(device), o = onepass_test::contents(host);
  onepass_test::checkArray("CPU: get_native_mem's data written in the host task", n, d.data(),
                           [](std::size_t i) { return 3 * static_cast<int>(i); });
  onepass_test::checkArray("CPU: a host_task accessor beside it", n, o.data(),
                           [](std::size_t i) { return 3 * static_cast<int>(i) + 1; });
  checkThrows("get_native<cuda>(CPU device)", sycl::errc::backend_mismatch,
              [&] { (void)sycl::get_native<sycl::backend::cuda>(q.get_device()); });
  kernelInterop(q, "CPU");
  checkThrows("get_native<cuda>(event of the CPU device)", sycl::errc::backend_mismatch,
              [&] { (void)sycl::get_native<sycl::backend::cuda>(q.single_task([] {})); });
  checkThrows("make_device<cuda> of a CUdevice no OnePass device is", sycl::errc::invalid,
              [] { (void)sycl::make_device<sycl::backend::cuda>(4096); });
}

using MemsetAsync = int (*)(unsigned long long, unsigned, size_t, void *);
using EventCreate = int (*)(CUevent_st **, unsigned);
using EventCall = int (*)(CUevent_st *);

// get_native(event) and make_event. `kernels`: the device runs kernel code.
void cudaEventInterop(void *driver, sycl::queue &q, bool kernels) {
  auto create = reinterpret_cast<EventCreate>(dlsym(driver, "cuEventCreate"));
  auto synchronize = reinterpret_cast<EventCall>(dlsym(driver, "cuEventSynchronize"));
  auto destroy = reinterpret_cast<EventCall>(dlsym(driver, "cuEventDestroy_v2"));
  if (!check("cuEventCreate/Synchronize/Destroy found", create && synchronize && destroy)) return;
  constexpr int n = 1 << 20;
  int *data = sycl::malloc_shared<int>(n, q);
  sycl::event done = q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = static_cast<int>(i[0]) * 2; });
  CUevent_st *native = sycl::get_native<sycl::backend::cuda>(done);
  check("get_native<cuda>(event) is a CUevent", native != nullptr);
  check("get_native<cuda>(event) is the same CUevent each time", sycl::get_native<sycl::backend::cuda>(done) == native);
  checkEqual("cuEventSynchronize on the event's CUevent", 0, synchronize(native));
  if (kernels) {  // the kernel is done once its CUevent is
    bool all = true;
    for (int i = 0; i < n; ++i) all = all && data[i] == 2 * i;
    check("the kernel's results are there after cuEventSynchronize", all);
  }
  done.wait();
  check("get_native<cuda> of a complete event is a CUevent", sycl::get_native<sycl::backend::cuda>(done) != nullptr);

  CUevent_st *user = nullptr;
  if (!check("cuEventCreate", create(&user, 0) == 0 && user)) return;
  sycl::event adopted = sycl::make_event<sycl::backend::cuda>(user, q.get_context());
  checkEqual("make_event<cuda>: its backend", static_cast<int>(sycl::backend::cuda),
             static_cast<int>(adopted.get_backend()));
  check("make_event<cuda>: get_native gives the CUevent back", sycl::get_native<sycl::backend::cuda>(adopted) == user);
  adopted.wait();  // a CUevent never recorded is complete
  check("make_event<cuda> of an unrecorded CUevent is complete",
        adopted.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete);
  q.submit([&](sycl::handler &h) {
     h.depends_on(adopted);
     h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] += 1; });
   }).wait();
  if (kernels) {
    bool all = true;
    for (int i = 0; i < n; ++i) all = all && data[i] == 2 * i + 1;
    check("a command depending on a made event runs", all);
  }
  checkThrows("make_event<cuda> with a CPU context", sycl::errc::backend_mismatch, [&] {
    (void)sycl::make_event<sycl::backend::cuda>(user, sycl::context(sycl::device(sycl::cpu_selector_v)));
  });
  destroy(user);
  sycl::free(data, q);
}

using StreamCreate = int (*)(CUstream_st **, unsigned);
using StreamCall = int (*)(CUstream_st *);
using ContextCreate = int (*)(CUctx_st **, unsigned, int);
using ContextPop = int (*)(CUctx_st **);
using ContextSet = int (*)(CUctx_st *);

// make_context and make_queue: round trips, and a queue made from the user's
// CUstream runs its commands in order with the user's own work there.
void cudaQueueContextInterop(void *driver, const sycl::device &dev, bool kernels) {
  auto streamCreate = reinterpret_cast<StreamCreate>(dlsym(driver, "cuStreamCreate"));
  auto streamSynchronize = reinterpret_cast<StreamCall>(dlsym(driver, "cuStreamSynchronize"));
  auto contextCreate = reinterpret_cast<ContextCreate>(dlsym(driver, "cuCtxCreate_v2"));
  auto contextPop = reinterpret_cast<ContextPop>(dlsym(driver, "cuCtxPopCurrent_v2"));
  auto contextSet = reinterpret_cast<ContextSet>(dlsym(driver, "cuCtxSetCurrent"));
  auto memsetAsync = reinterpret_cast<MemsetAsync>(dlsym(driver, "cuMemsetD32Async"));
  auto streamDestroy = reinterpret_cast<StreamCall>(dlsym(driver, "cuStreamDestroy_v2"));
  auto contextDestroy = reinterpret_cast<ContextSet>(dlsym(driver, "cuCtxDestroy_v2"));
  if (!check("cuStreamCreate/Synchronize/Destroy, cuCtxCreate/PopCurrent/SetCurrent/Destroy found",
             streamCreate && streamSynchronize && contextCreate && contextPop && contextSet && memsetAsync &&
                 streamDestroy && contextDestroy))
    return;
  sycl::context ctx(dev);
  CUctx_st *primary = sycl::get_native<sycl::backend::cuda>(ctx).at(0);

  sycl::context same = sycl::make_context<sycl::backend::cuda>(primary);
  check("make_context<cuda>(primary context): its device",
        same.get_devices().size() == 1 && same.get_devices()[0] == dev);
  check("make_context<cuda>(primary context): get_native gives it back",
        sycl::get_native<sycl::backend::cuda>(same) == std::vector<CUctx_st *>{primary});
  CUctx_st *own = nullptr;
  if (check("cuCtxCreate", contextCreate(&own, 0, sycl::get_native<sycl::backend::cuda>(dev)) == 0 && own)) {
    CUctx_st *popped = nullptr;
    contextPop(&popped);
    bool handled = false;
    sycl::context made = sycl::make_context<sycl::backend::cuda>(own, [&](sycl::exception_list) { handled = true; });
    check("make_context<cuda>(a context of the device): its device",
          made.get_devices().size() == 1 && made.get_devices()[0] == dev);
    check("make_context<cuda>(a context of the device): get_native gives it back",
          sycl::get_native<sycl::backend::cuda>(made) == std::vector<CUctx_st *>{own});
    check("make_context<cuda>: no asynchronous error yet", !handled);
    std::vector<CUctx_st *> seen;
    sycl::queue(made, dev).submit([&](sycl::handler &h) {
      h.host_task([&](sycl::interop_handle ih) { seen = ih.get_native_context<sycl::backend::cuda>(); });
    }).wait();
    check("a host task of a queue of a made context: get_native_context gives the CUcontext",
          seen == std::vector<CUctx_st *>{own});
  }
  checkThrows("make_context<cuda>(nullptr)", sycl::errc::invalid,
              [] { (void)sycl::make_context<sycl::backend::cuda>(nullptr); });

  contextSet(primary);  // the user's streams, in the context OnePass uses
  CUstream_st *stream = nullptr;
  if (!check("cuStreamCreate", streamCreate(&stream, 0) == 0 && stream)) return;
  sycl::queue q = sycl::make_queue<sycl::backend::cuda>(stream, ctx);
  check("make_queue<cuda>: get_native gives the CUstream back", sycl::get_native<sycl::backend::cuda>(q) == stream);
  sycl::queue copy(q);
  check("make_queue<cuda>: a copy has the same CUstream", sycl::get_native<sycl::backend::cuda>(copy) == stream);
  check("make_queue<cuda>: in order", q.is_in_order() && q.has_property<sycl::property::queue::in_order>());
  check("make_queue<cuda>: its device and context", q.get_device() == dev && q.get_context() == ctx);
  sycl::queue again = sycl::make_queue<sycl::backend::cuda>(stream, ctx);
  check("make_queue<cuda> twice of one CUstream: the same CUstream",
        sycl::get_native<sycl::backend::cuda>(again) == stream);
  // The user's memset, then the queue's command on the same stream: it sees
  // the memset's values only if it runs after it.
  constexpr int n = 1 << 20;
  unsigned *data = sycl::malloc_device<unsigned>(n, q);
  std::vector<unsigned> host(n, 0);
  checkEqual("cuMemsetD32Async on the user's stream", 0,
             memsetAsync(reinterpret_cast<unsigned long long>(data), 7u, n, stream));
  if (kernels) q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] += 1; });
  q.memcpy(host.data(), data, n * sizeof(unsigned));
  q.wait();
  onepass_test::checkArray("make_queue<cuda>: commands after the user's work on the stream", n, host.data(),
                           [&](std::size_t) { return 7u + (kernels ? 1u : 0u); });
  // And the user's work after the queue's: the stream's order again.
  if (kernels) q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = 100; });
  else q.fill(data, 100u, n);
  checkEqual("cuMemsetD32Async after the queue's command", 0,
             memsetAsync(reinterpret_cast<unsigned long long>(data), 9u, n / 2, stream));
  checkEqual("cuStreamSynchronize", 0, streamSynchronize(stream));
  q.memcpy(host.data(), data, n * sizeof(unsigned)).wait();
  onepass_test::checkArray("make_queue<cuda>: the user's work after the queue's command", n, host.data(),
                           [&](std::size_t i) { return i < n / 2 ? 9u : 100u; });
  // A host task's native queue is the queue's CUstream, and its work there
  // is done when the host task is.
  CUstream_st *inTask = nullptr;
  int taskFailed = -1;
  q.submit([&](sycl::handler &h) {
    h.host_task([&](sycl::interop_handle ih) {
      inTask = ih.get_native_queue<sycl::backend::cuda>();
      taskFailed = memsetAsync(reinterpret_cast<unsigned long long>(data), 11u, n, inTask);
    });
  });
  q.memcpy(host.data(), data, n * sizeof(unsigned)).wait();
  check("a host task of a made queue: get_native_queue is its CUstream", inTask == stream);
  checkEqual("a host task of a made queue: cuMemsetD32Async", 0, taskFailed);
  onepass_test::checkArray("a host task of a made queue: its native work is done after it", n, host.data(),
                           [](std::size_t) { return 11u; });
  sycl::free(data, q);
  checkThrows("make_queue<cuda> with a CPU context", sycl::errc::backend_mismatch, [&] {
    (void)sycl::make_queue<sycl::backend::cuda>(stream, sycl::context(sycl::device(sycl::cpu_selector_v)));
  });
  checkThrows("make_queue<cuda> of the NULL stream", sycl::errc::invalid,
              [&] { (void)sycl::make_queue<sycl::backend::cuda>(nullptr, ctx); });
  if (own) {
    CUstream_st *foreign = nullptr;
    contextSet(own);
    const bool made = streamCreate(&foreign, 0) == 0;
    contextSet(primary);
    if (check("cuStreamCreate in another context", made)) {
      checkThrows("make_queue<cuda> of a stream of another context", sycl::errc::invalid,
                  [&] { (void)sycl::make_queue<sycl::backend::cuda>(foreign, ctx); });
      streamDestroy(foreign);
    }
    contextDestroy(own);  // no SYCL object of it is left
  }
}

// `kernels`: false against the fake driver, which runs no kernel code.
void cudaInterop(const sycl::device &dev, bool kernels) {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!check("libcuda.so.1 loads", driver != nullptr)) return;
  auto memsetAsync = reinterpret_cast<MemsetAsync>(dlsym(driver, "cuMemsetD32Async"));
  if (!check("cuMemsetD32Async found", memsetAsync != nullptr)) return;
  sycl::queue q{dev};
  constexpr int n = 1 << 16;
  std::vector<unsigned> values(n, 1);
  int nativeDevice = -1;
  std::vector<CUctx_st *> nativeContext;
  CUstream_st *nativeQueue = nullptr;
  int failed = -1;
  {
    sycl::buffer<unsigned> buf(values.data(), sycl::range<1>(n));
    if (kernels)
      q.submit([&](sycl::handler &h) {  // the data is on the device before the host task
        sycl::accessor a(buf, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1; });
      });
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(buf, h, sycl::read_write);
      h.host_task([=, &nativeDevice, &nativeContext, &nativeQueue, &failed](sycl::interop_handle ih) {
        nativeDevice = ih.get_native_device<sycl::backend::cuda>();
        nativeContext = ih.get_native_context<sycl::backend::cuda>();
        nativeQueue = ih.get_native_queue<sycl::backend::cuda>();
        unsigned *mem = ih.get_native_mem<sycl::backend::cuda>(a);
        // Half of the buffer, asynchronously: OnePass waits for it.
        failed = memsetAsync(reinterpret_cast<unsigned long long>(mem), 0xC0FFEEu, n / 2, nativeQueue);
      });
    });
    if (kernels)
      q.submit([&](sycl::handler &h) {  // after the native work
        sycl::accessor a(buf, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1; });
      });
  }
  checkEqual("CUDA: cuMemsetD32Async on the interop stream", 0, failed);
  checkEqual("CUDA: get_native_device == get_native<cuda>(device)", sycl::get_native<sycl::backend::cuda>(dev),
             nativeDevice);
  check("CUDA: get_native_context == get_native<cuda>(context)",
        nativeContext == sycl::get_native<sycl::backend::cuda>(q.get_context()) && nativeContext.size() == 1 &&
            nativeContext[0] != nullptr);
  check("CUDA: get_native_queue == get_native<cuda>(queue)",
        nativeQueue != nullptr && nativeQueue == sycl::get_native<sycl::backend::cuda>(q));
  onepass_test::checkArray("CUDA: kernel, native memset of half, kernel", n, values.data(),
                           [&](std::size_t i) { return i < n / 2 ? 0xC0FFEEu + kernels : 1u + 2 * kernels; });
  checkThrows("get_native<cuda>(platform) of a CPU platform", sycl::errc::backend_mismatch,
              [] { (void)sycl::get_native<sycl::backend::cuda>(sycl::device(sycl::cpu_selector_v).get_platform()); });
  checkEqual("get_native<cuda>(platform): its devices", std::size_t(dev.get_platform().get_devices().size()),
             sycl::get_native<sycl::backend::cuda>(dev.get_platform()).size());
  check("make_device<cuda>(get_native<cuda>(device)) is the device",
        sycl::make_device<sycl::backend::cuda>(sycl::get_native<sycl::backend::cuda>(dev)) == dev);
  cudaEventInterop(driver, q, kernels);
  cudaQueueContextInterop(driver, dev, kernels);
  if (kernels) kernelInterop(q, "CUDA");
}

}  // namespace

// argv[1] == "fake": against tests/fake_cuda (no kernels on the CUDA device).
int main(int argc, char **argv) {
  const bool fake = argc > 1 && std::string(argv[1]) == "fake";
  // OnePass's CPU device (ONEPASS_DEVICE_SELECTOR may leave it out, e.g.
  // for an OpenCL CPU device, which has no interop yet).
  bool cpu = false;
  for (const sycl::device &d : sycl::device::get_devices())
    if (d.get_backend() == sycl::backend::ext_onepass_cpu && !cpu) {
      cpu = true;
      onepass_test::runPart("CPU interop", [&] { cpuInterop(d); });
    }
  if (!cpu) std::printf("SKIPPED CPU interop: no OnePass CPU device is seen\n");
  bool gpu = false;
  for (const sycl::device &d : sycl::device::get_devices(sycl::info::device_type::gpu))
    if (d.get_backend() == sycl::backend::cuda && !gpu) {
      gpu = true;
      onepass_test::runPart("CUDA interop", [&] { cudaInterop(d, !fake); });
    }
  if (!gpu) std::printf("no CUDA device: CUDA interop not tested here\n");
  if (fake) check("the fake CUDA driver's device is there", gpu);
  return onepass_test::report();
}
