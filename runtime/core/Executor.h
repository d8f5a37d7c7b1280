// Runs the nodes of the task graph of one device (or of the host, for host
// tasks). A node becomes ready when its last dependency completes (events call
// their successors); ready nodes run in submission order of readiness on
// `lanes` worker threads, so independent nodes may run concurrently, also on
// one device (runtime-spec.md, "Dependencies").
//
// Asynchronous nodes (a device with streams) that are ready at submission are
// enqueued by the submitting thread itself: a hop to another thread would cost
// more than it saves (the objects of the node would move between cores).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace onepass::rt {

struct Node;
class StreamTracker;
class AsyncWork;

class Executor {
public:
  // With `streams`, the executor also runs asynchronous nodes (submitAsync).
  explicit Executor(unsigned lanes, StreamTracker *streams = nullptr);
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  // Runs `work` once every event in event->dependencies is complete, then
  // completes `event`. An exception from `work` goes to the event's error sink.
  void submit(std::shared_ptr<Node> event, std::function<void()> work);

  // An asynchronous node (event->tracker is this executor's StreamTracker):
  // it is enqueued once its dependencies on this device are enqueued and the
  // others complete; its event completes when the device has run it. If it is
  // ready at once, the calling thread enqueues it, saving a thread hop.
  // `unpublished`: no other thread can reach the event yet. Without `work`,
  // the event's embeddedWork is what it runs.
  void submitAsync(std::shared_ptr<Node> event, std::shared_ptr<AsyncWork> work, bool unpublished = false);

  unsigned lanes() const { return static_cast<unsigned>(threads_.size()); }

  // Runs `event`'s work on the calling thread if it waits in the queue, no
  // lane having taken it yet: a thread about to wait for it does it instead
  // of sleeping until a lane wakes up. Returns whether it ran it.
  bool runIfQueued(const Node &event);

private:
  struct Task {
    std::shared_ptr<Node> event;
    std::function<void()> work;
    std::shared_ptr<AsyncWork> async;  // what an asynchronous node runs, if not its event's embeddedWork
    bool isAsync = false;
  };
  void submitTask(Task task, bool unpublished = false);
  void runNow(Task task, bool unpublished);
  void enqueue(Task task);
  void runTask(Task &task);
  void loop(unsigned lane);

  StreamTracker *streams_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> tasks_;
  std::atomic<size_t> queued_{0};  // tasks_.size(), readable without the lock
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// Where host tasks run: not on a device's lanes, so a long host task never
// holds up kernels that do not depend on it.
Executor &hostExecutor();
// The host tasks' executor if one was made (no threads are started to ask).
Executor *hostExecutorIfMade();

}  // namespace onepass::rt
