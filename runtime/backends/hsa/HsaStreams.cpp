// The HSA backend's streams (BackendInterface.h, "Asynchronous operations"):
// kStreams HSA queues per GPU. Every packet carries the barrier bit, so a
// queue runs its packets one after the other (HSA Platform System
// Architecture §2.9.6): a marker is a barrier-AND packet with a completion
// signal and no dependencies, which completes once everything before it
// has; a wait for another stream's marker is a barrier-AND packet on the
// waiting stream that depends on the marker's signal. Kernel dispatches take
// the kernarg slot of their packet index (HsaKernels.cpp). Copies and fills
// wait for their stream, then run as the synchronous ones do. Marker times
// are the host's clock when the backend first saw the marker complete, or
// when it saw a later marker of its stream complete if that was earlier
// (so a stream's times never decrease): late by up to the poller's interval.
// (HSA's packet timestamps need queue profiling and exist for dispatches.)
#include "HsaDevice.h"

#include "BackendErrors.h"
#include "PluginSupport.h"

#include <cstring>
#include <string>

namespace onepass::hsa {

struct Marker {
  hsa_signal_t signal{};
  Stream *stream = nullptr;
  uint64_t index = 0;        // its packet's
  uint64_t completedAt = 0;  // its time (seeComplete); 0 until seen complete
  // Barrier packets of other streams that depend on the signal: (stream,
  // packet index). The signal is reused only once each has run.
  std::vector<std::pair<Stream *, uint64_t>> waiters;
};

namespace {

// The packet at `index` has run: with the barrier bit on every packet, the
// processor takes packet index + 1 only once packet `index` completed.
bool packetDone(Stream &stream, uint64_t index) {
  return api.hsa_queue_load_read_index_scacquire(stream.queue) > index + 1;
}

// Reuses the signals of quarantined markers whose waiters have all run
// (markersMutex held).
void sweepQuarantine(Device &d) {
  auto &list = d.quarantine;
  for (size_t i = 0; i < list.size();) {
    Marker *marker = list[i];
    // (Its own packet too: the packet processor still writes the signal of a
    // marker released before it completed.)
    bool done = api.hsa_signal_load_scacquire(marker->signal) < 1;
    for (const auto &[stream, index] : marker->waiters) done = done && packetDone(*stream, index);
    if (!done) {
      ++i;
      continue;
    }
    d.idleSignals.push_back(marker->signal);
    delete marker;
    list[i] = list.back();
    list.pop_back();
  }
}

// Gives a marker seen complete its time: now, or the time of a later marker
// of its stream seen complete before (it completed no later than that).
void seeComplete(Marker &marker) {
  if (marker.completedAt) return;
  Stream &stream = *marker.stream;
  std::lock_guard<std::mutex> lock(stream.mutex);
  uint64_t at = rt::steadyNanoseconds();
  if (auto later = stream.seen.upper_bound(marker.index); later != stream.seen.end()) at = std::min(at, later->second);
  stream.seen[marker.index] = at;
  while (stream.seen.size() > 256) stream.seen.erase(stream.seen.begin());
  marker.completedAt = at;
}

bool takeSignal(Device &d, hsa_signal_t &signal, std::string &error) {
  {
    std::lock_guard<std::mutex> lock(d.markersMutex);
    if (d.idleSignals.empty()) sweepQuarantine(d);
    if (!d.idleSignals.empty()) {
      signal = d.idleSignals.back();
      d.idleSignals.pop_back();
      api.hsa_signal_store_relaxed(signal, 1);
      return true;
    }
  }
  hsa_status_t status = api.hsa_signal_create(1, 0, nullptr, &signal);
  if (status != HSA_STATUS_SUCCESS) {
    error = failed("hsa_signal_create", status);
    return false;
  }
  return true;
}

// Writes a barrier-AND packet (one dependency at most) on the stream and
// submits it; its index in `index`. (Stream mutex held.)
bool appendBarrier(Device &d, Stream &stream, hsa_signal_t dependency, hsa_signal_t completion, uint64_t &index,
                   std::string &error) {
  if (!reservePacket(d, stream, index, error)) return false;
  auto *packet = static_cast<hsa_barrier_and_packet_t *>(stream.queue->base_address) + index % stream.queue->size;
  packet->reserved0 = 0;
  packet->reserved1 = 0;
  for (hsa_signal_t &slot : packet->dep_signal) slot.handle = 0;
  packet->dep_signal[0] = dependency;
  packet->reserved2 = 0;
  packet->completion_signal = completion;
  submitPacket(stream.queue, index, orderedHeader(HSA_PACKET_TYPE_BARRIER_AND), 0);
  return true;
}

Device *streamDevice(uint32_t device, uint32_t stream, char **error) {
  Device *d = deviceAt(device);
  if (!d) rt::reportBackendError(error, "no HSA device " + std::to_string(device));
  else if (stream >= kStreams) {
    rt::reportBackendError(error, "no HSA stream " + std::to_string(stream));
    return nullptr;
  }
  return d;
}

void *recordMarker(uint32_t device, uint32_t stream, uint32_t, char **error) {
  Device *d = streamDevice(device, stream, error);
  if (!d) return nullptr;
  std::string message;
  hsa_signal_t signal{};
  if (!takeSignal(*d, signal, message)) {
    rt::reportBackendError(error, message);
    return nullptr;
  }
  Stream &s = d->streams[stream];
  uint64_t index = 0;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!appendBarrier(*d, s, hsa_signal_t{0}, signal, index, message)) {
    std::lock_guard<std::mutex> markers(d->markersMutex);
    d->idleSignals.push_back(signal);
    rt::reportBackendError(error, message);
    return nullptr;
  }
  auto *marker = new Marker;
  marker->signal = signal;
  marker->stream = &s;
  marker->index = index;
  return marker;
}

int streamWaitMarker(uint32_t device, uint32_t stream, void *handle, char **error) {
  Device *d = streamDevice(device, stream, error);
  if (!d) return 1;
  auto *marker = static_cast<Marker *>(handle);
  Stream &s = d->streams[stream];
  std::string message;
  uint64_t index = 0;
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!appendBarrier(*d, s, marker->signal, hsa_signal_t{0}, index, message))
    return rt::reportBackendError(error, message);
  std::lock_guard<std::mutex> markers(d->markersMutex);
  marker->waiters.emplace_back(&s, index);
  return 0;
}

int queryMarker(uint32_t device, void *handle, char **error) {
  Device *d = deviceAt(device);
  if (!d) {
    rt::reportBackendError(error, "no HSA device " + std::to_string(device));
    return -1;
  }
  auto *marker = static_cast<Marker *>(handle);
  if (api.hsa_signal_load_scacquire(marker->signal) < 1) {
    seeComplete(*marker);
    return 1;
  }
  if (d->queueError.load() != HSA_STATUS_SUCCESS) {
    rt::reportBackendError(error, stoppedMessage(*d));
    return -1;
  }
  return 0;
}

// Blocks until the marker's signal completes; 1 with *error if the device
// stopped first.
int awaitMarker(Device &d, Marker &marker, char **error) {
  while (api.hsa_signal_wait_scacquire(marker.signal, HSA_SIGNAL_CONDITION_LT, 1, kWaitSliceNs,
                                       HSA_WAIT_STATE_BLOCKED) >= 1)
    if (d.queueError.load() != HSA_STATUS_SUCCESS) return rt::reportBackendError(error, stoppedMessage(d));
  if (marker.stream) seeComplete(marker);
  return 0;
}

int waitMarker(uint32_t device, void *handle, char **error) {
  Device *d = deviceAt(device);
  if (!d) return rt::reportBackendError(error, "no HSA device " + std::to_string(device));
  return awaitMarker(*d, *static_cast<Marker *>(handle), error);
}

int markerTime(uint32_t device, void *handle, uint64_t *nanoseconds, char **error) {
  auto *marker = static_cast<Marker *>(handle);
  if (!marker->completedAt) {
    const int state = queryMarker(device, handle, error);
    if (state != 1) return state < 0 ? 1 : rt::reportBackendError(error, "the marker has not completed");
  }
  *nanoseconds = marker->completedAt;
  return 0;
}

void releaseMarker(uint32_t device, void *handle) {
  Device *d = deviceAt(device);
  auto *marker = static_cast<Marker *>(handle);
  if (!d || !marker) return;
  std::lock_guard<std::mutex> lock(d->markersMutex);
  d->quarantine.push_back(marker);  // (freed by the next sweep once its waiters ran)
  sweepQuarantine(*d);
}

int waitStream(uint32_t device, uint32_t stream, char **error) {
  Device *d = streamDevice(device, stream, error);
  return d ? finishStream(*d, stream, error) : 1;
}

int copyAsync(uint32_t device, uint32_t stream, void *destination, const void *source, uint64_t bytes, char **error) {
  Device *d = streamDevice(device, stream, error);
  if (!d || finishStream(*d, stream, error)) return 1;
  hsa_status_t status = api.hsa_memory_copy(destination, source, bytes);
  if (status != HSA_STATUS_SUCCESS) return rt::reportBackendError(error, failed("hsa_memory_copy", status));
  return 0;
}

int fillAsync(uint32_t device, uint32_t stream, void *destination, const void *pattern, uint32_t patternBytes,
              uint64_t count, char **error) {
  Device *d = streamDevice(device, stream, error);
  if (!d || finishStream(*d, stream, error)) return 1;
  return fill(device, destination, pattern, patternBytes, count, error);
}

}  // namespace

void onQueueError(hsa_status_t status, hsa_queue_t *, void *data) {
  static_cast<Device *>(data)->queueError.store(status);
}

bool createStreams(Device &d, uint32_t queueSize, std::string &error) {
  for (Stream &stream : d.streams) {
    hsa_status_t status = api.hsa_queue_create(d.agent, queueSize, HSA_QUEUE_TYPE_SINGLE, onQueueError, &d, UINT32_MAX,
                                               UINT32_MAX, &stream.queue);
    if (status != HSA_STATUS_SUCCESS) {
      error = failed("hsa_queue_create", status) + " (for the runtime's streams)";
      return false;
    }
    const uint64_t bytes = uint64_t(stream.queue->size) * kKernargSlotBytes;
    stream.kernargs = static_cast<char *>(allocateFromPool(d.kernargPool, 16, bytes, 64, error));
    if (!stream.kernargs) return false;
    status = api.hsa_amd_agents_allow_access(1, &d.agent, nullptr, stream.kernargs);
    if (status != HSA_STATUS_SUCCESS) {
      error = failed("hsa_amd_agents_allow_access", status) + " (for the streams' kernel arguments)";
      return false;
    }
  }
  return true;
}

bool reservePacket(Device &d, Stream &stream, uint64_t &index, std::string &error) {
  if (d.queueError.load() != HSA_STATUS_SUCCESS) {
    error = stoppedMessage(d);
    return false;
  }
  index = api.hsa_queue_add_write_index_scacq_screl(stream.queue, 1);
  // Room for it, with two packets to spare: a kernarg slot is reused only
  // once the packet that had it is done (packetDone).
  while (index - api.hsa_queue_load_read_index_scacquire(stream.queue) + 2 >= stream.queue->size) {
    if (d.queueError.load() != HSA_STATUS_SUCCESS) {
      error = stoppedMessage(d);
      return false;
    }
  }
  return true;
}

uint16_t orderedHeader(hsa_packet_type_t type) {
  return static_cast<uint16_t>(type << HSA_PACKET_HEADER_TYPE | 1 << HSA_PACKET_HEADER_BARRIER |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

std::string stoppedMessage(const Device &d) {
  return "'" + d.agentName +
         "' stopped after an earlier kernel failed: " + failed("the HSA queue", d.queueError.load());
}

void submitPacket(hsa_queue_t *queue, uint64_t index, uint16_t header, uint16_t setup) {
  auto *packet = static_cast<char *>(queue->base_address) + (index % queue->size) * 64;
  // The header last, with release semantics: the packet processor may take
  // the packet as soon as its type is no longer INVALID.
  __atomic_store_n(reinterpret_cast<uint32_t *>(packet), header | static_cast<uint32_t>(setup) << 16, __ATOMIC_RELEASE);
  api.hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(index));
}

int finishStream(Device &d, uint32_t stream, char **error) {
  Stream &s = d.streams[stream];
  std::string message;
  hsa_signal_t signal{};
  uint64_t index = 0;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    // (Nothing enqueued since the last finish: no packet needed.)
    if (api.hsa_queue_add_write_index_scacq_screl(s.queue, 0) == s.finished) return 0;
    if (!takeSignal(d, signal, message)) return rt::reportBackendError(error, message);
    if (!appendBarrier(d, s, hsa_signal_t{0}, signal, index, message)) {
      std::lock_guard<std::mutex> markers(d.markersMutex);
      d.idleSignals.push_back(signal);
      return rt::reportBackendError(error, message);
    }
  }
  Marker marker;
  marker.signal = signal;
  const int failedWait = awaitMarker(d, marker, error);
  if (failedWait) return 1;  // (the signal may never complete: it is not reused)
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.finished = std::max(s.finished, index + 1);
  }
  std::lock_guard<std::mutex> markers(d.markersMutex);
  d.idleSignals.push_back(signal);
  return 0;
}

void fillStreamTable(onepass_backend &t) {
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
  t.wait_stream = waitStream;
}

}  // namespace onepass::hsa
