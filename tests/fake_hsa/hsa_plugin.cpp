// The HSA backend plugin's streams through its C table, as the runtime calls
// them, against the fake HSA runtime (FakeHsa.cpp): what the SYCL program
// hsa_backend.cpp cannot reach. A released marker's completion signal is
// reused only once every barrier packet that waits for it has run (the
// quarantine of HsaStreams.cpp): given to a new marker too early, the signal
// would be reset to 1 under a barrier of another stream still waiting for it,
// and that stream would wait for the new marker instead.
// Usage: hsa_plugin <path of libonepass-backend-hsa.so>, with the fake
// runtime's folder in LD_LIBRARY_PATH.
#include "plugin_check.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

using plugin_check::check;
using plugin_check::failures;
using plugin_check::take;

// Polls the marker for up to `seconds`: whether it completed (a wait_marker
// would block for good where the test fails).
bool completesWithin(const onepass_backend *b, void *marker, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  char *error = nullptr;
  while (std::chrono::steady_clock::now() < end) {
    const int state = b->query_marker(0, marker, &error);
    if (state != 0) {
      take(error);
      return state == 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <libonepass-backend-hsa.so>\n", argv[0]);
    return 2;
  }
  const onepass_backend *b = plugin_check::loadBackend(argv[1]);
  if (!b) return 1;
  char *error = nullptr;
  if (!check("one device", b->device_count() == 1)) return 1;
  if (!check("4 streams", b->streams == 4 && b->record_marker && b->stream_wait_marker)) return 1;
  void *runtime = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_NOLOAD);
  using HoldQueue = void (*)(unsigned, int);
  auto holdQueue = reinterpret_cast<HoldQueue>(runtime ? dlsym(runtime, "fake_hsa_hold_queue") : nullptr);
  if (!check("the fake HSA runtime's fake_hsa_hold_queue is there", holdQueue != nullptr)) return 1;

  // The backend creates its synchronous queue, then one queue per stream:
  // stream s is the fake's queue s + 1. Held, its markers stay incomplete.
  auto queueOf = [](uint32_t stream) { return unsigned(stream + 1); };
  for (uint32_t stream = 0; stream < 4; ++stream) {
    holdQueue(queueOf(stream), 1);
    void *marker = b->record_marker(0, stream, 0, &error);
    if (!check("record_marker on stream " + std::to_string(stream) + ": " + take(error), marker != nullptr)) return 1;
    check("stream " + std::to_string(stream) + "'s marker waits while its queue is held",
          b->query_marker(0, marker, &error) == 0);
    holdQueue(queueOf(stream), 0);
    check("... and completes once it is not",
          b->wait_marker(0, marker, &error) == 0 && b->query_marker(0, marker, &error) == 1);
    b->release_marker(0, marker);
  }

  // Streams 1 and 3 held. M completes on stream 0; stream 1 waits for it
  // (a barrier packet that has not run), and L follows on stream 1.
  holdQueue(queueOf(1), 1);
  holdQueue(queueOf(3), 1);
  void *m = b->record_marker(0, 0, 0, &error);
  check("M on stream 0 completes: " + take(error), m && b->wait_marker(0, m, &error) == 0);
  check("stream 1 waits for M: " + take(error), b->stream_wait_marker(0, 1, m, &error) == 0);
  void *l = b->record_marker(0, 1, 0, &error);
  check("L on stream 1 behind the wait: " + take(error), l && b->query_marker(0, l, &error) == 0);
  b->release_marker(0, m);
  // More markers on held stream 3 than the backend has idle signals: it
  // looks at the released ones, and must not take M's.
  std::vector<void *> pending;
  for (int i = 0; i < 16; ++i) pending.push_back(b->record_marker(0, 3, 0, &error));
  bool all = true;
  for (void *p : pending) all = all && p != nullptr;
  check("16 markers on held stream 3: " + take(error), all);
  holdQueue(queueOf(1), 0);
  check("once stream 1 runs, its wait for the released M is met and L completes (stream 3 still held)",
        completesWithin(b, l, 2.0));
  holdQueue(queueOf(3), 0);
  all = true;
  for (void *p : pending) all = all && b->wait_marker(0, p, &error) == 0;
  check("stream 3's markers complete: " + take(error), all);
  for (void *p : pending) b->release_marker(0, p);
  b->release_marker(0, l);

  // Signals go round: rounds of markers, each waited for by another stream,
  // released; every one completes.
  all = true;
  for (int round = 0; round < 4; ++round) {
    std::vector<void *> markers;
    for (uint32_t i = 0; i < 64; ++i) {
      markers.push_back(b->record_marker(0, i % 4, 0, &error));
      all = all && markers.back() && b->stream_wait_marker(0, (i + 1) % 4, markers.back(), &error) == 0;
    }
    for (void *marker : markers) all = all && marker && b->wait_marker(0, marker, &error) == 0;
    for (void *marker : markers) b->release_marker(0, marker);
  }
  check("256 markers waited for across streams and released: " + take(error), all);
  for (uint32_t stream = 0; stream < 4; ++stream)
    check("stream " + std::to_string(stream) + " drains", b->wait_stream(0, stream, &error) == 0);
  if (failures == 0) std::printf("PASSED\n");
  return failures == 0 ? 0 : 1;
}
