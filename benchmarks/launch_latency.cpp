// JIT latency and kernel launch overhead of OnePass on the default device (the
// CPU unless ONEPASS_DEVICE says otherwise).
//
//  1. First launch of a vector add (2^20 floats), from submit to completion:
//     it includes the JIT compile (and loading the JIT library); then the same
//     kernel again, now cached.
//  2. Launch overhead of cached empty kernels, submit + wait, one at a time:
//     single_task and parallel_for(range<1>(1)); median and p90.
//  3. Throughput: back-to-back submissions on an in-order queue, one wait.
//
// References measured in the same run, in rounds alternating with the
// measurements so that changes in machine load hit both: a condition-variable
// round trip between two threads (the least a launch on a worker thread can
// cost), a plain call of the empty kernel body timed the same way (the timer
// floor), and for the throughput a worker thread draining a queue of
// std::function tasks. Overheads are printed as ratios to these.
//
// A round trip costs very different amounts when the two threads share a core
// and when they do not (waking an idle core is slow, in a VM especially), and
// where the OS puts a new thread decides which one a test gets. So the
// reference is a round trip with both threads pinned to one core, the
// cheapest handoff; pinned to two cores, and left to the OS (a fresh thread
// each round), are printed too, to read the results against.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <pthread.h>
#include <sched.h>

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kRepetitions = 10000;  // timed launches of each kind
constexpr int kRounds = 10;          // ... in this many rounds, alternating kinds
constexpr int kThroughputRounds = 5;
constexpr size_t kVectorElements = size_t(1) << 20;

double microseconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::micro>(to - from).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double percentile90(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(0.9 * double(values.size() - 1))];
}

// Times each call of `step` on its own, `count` times, appending to `samples`.
template <typename Step> void timeEach(std::vector<double> &samples, int count, Step step) {
  for (int i = 0; i < count; ++i) {
    auto start = Clock::now();
    step();
    samples.push_back(microseconds(start, Clock::now()));
  }
}

// Named kernels: the warm-up and the timed loops launch the same kernel, so
// only the first launch of each compiles it.
struct EmptyTask {
  void operator()() const {}
};
struct EmptyItem {
  void operator()(sycl::id<1>) const {}
};
struct VectorAdd {
  const float *x;
  const float *y;
  float *sum;
  void operator()(sycl::id<1> i) const { sum[i] = x[i] + y[i]; }
};

// The plain-call reference: the empty kernel body, called where the compiler
// cannot see (or drop) it.
__attribute__((noinline)) void callEmptyBody() {
  EmptyTask{}();
  asm volatile("" ::: "memory");
}

// The CPUs this thread may run on.
std::vector<int> allowedCpus() {
  cpu_set_t set;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

void pinCurrentThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

// Pins the calling thread to one CPU for the lifetime of the guard.
class PinnedScope {
public:
  explicit PinnedScope(int cpu) {
    pthread_getaffinity_np(pthread_self(), sizeof(saved_), &saved_);
    pinCurrentThread(cpu);
  }
  ~PinnedScope() { pthread_setaffinity_np(pthread_self(), sizeof(saved_), &saved_); }
  PinnedScope(const PinnedScope &) = delete;
  PinnedScope &operator=(const PinnedScope &) = delete;

private:
  cpu_set_t saved_;
};

// A round trip caller -> worker -> caller through a mutex and condition
// variables: what a submit to an executor thread and a wait for its
// completion signal cannot avoid. The worker runs where the OS puts it, or on
// `workerCpu`.
class ThreadHandoff {
public:
  explicit ThreadHandoff(int workerCpu = -1) : workerCpu_(workerCpu), worker_([this] { serve(); }) {}
  ~ThreadHandoff() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    toWorker_.notify_one();
    worker_.join();
  }

  void roundTrip() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      request_ = true;
    }
    toWorker_.notify_one();
    std::unique_lock<std::mutex> lock(mutex_);
    toCaller_.wait(lock, [&] { return reply_; });
    reply_ = false;
  }

private:
  void serve() {
    if (workerCpu_ >= 0) pinCurrentThread(workerCpu_);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      toWorker_.wait(lock, [&] { return request_ || stop_; });
      if (stop_) return;
      request_ = false;
      reply_ = true;
      toCaller_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable toWorker_, toCaller_;
  bool request_ = false, reply_ = false, stop_ = false;
  int workerCpu_;
  std::thread worker_;  // last: starts once the members it uses exist
};

// The throughput reference: empty std::function tasks pushed back to back
// into a mutex-protected queue that a worker thread drains, then a wait for
// the last one.
class TaskQueue {
public:
  TaskQueue() : worker_([this] { serve(); }) {}
  ~TaskQueue() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    ready_.notify_one();
    worker_.join();
  }

  // Microseconds per task for `count` tasks.
  double run(int count) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = 0;
    }
    auto start = Clock::now();
    for (int i = 0; i < count; ++i) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        tasks_.push_back(callEmptyBody);
      }
      ready_.notify_one();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    progress_.wait(lock, [&] { return done_ == count; });
    return microseconds(start, Clock::now()) / count;
  }

private:
  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ready_.wait(lock, [&] { return stop_ || !tasks_.empty(); });
      if (tasks_.empty()) return;
      std::function<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();
      lock.lock();
      ++done_;
      progress_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_, progress_;
  std::deque<std::function<void()>> tasks_;
  int done_ = 0;
  bool stop_ = false;
  std::thread worker_;  // last: starts once the members it uses exist
};

struct FirstAndCached {
  double submitUs;  // the submit call alone: it JIT-compiles the kernel if needed
  double totalUs;   // submit to completion
};

FirstAndCached launchVectorAdd(sycl::queue &q, const VectorAdd &kernel) {
  auto start = Clock::now();
  sycl::event done = q.parallel_for(sycl::range<1>(kVectorElements), kernel);
  auto submitted = Clock::now();
  done.wait();
  auto end = Clock::now();
  return FirstAndCached{microseconds(start, submitted), microseconds(start, end)};
}

// Back-to-back submissions on an in-order queue, then one wait; microseconds per submission.
double inOrderThroughput(sycl::queue &inOrder, int submissions) {
  auto start = Clock::now();
  for (int i = 0; i < submissions; ++i) inOrder.single_task(EmptyTask{});
  inOrder.wait();
  return microseconds(start, Clock::now()) / submissions;
}

}  // namespace

int main() {
  sycl::queue q;
  sycl::device device = q.get_device();
  std::printf("device: %s (%s, %u compute units); %u hardware threads\n",
              device.get_info<sycl::info::device::name>().c_str(), device.is_cpu() ? "CPU" : "GPU",
              device.get_info<sycl::info::device::max_compute_units>(), std::thread::hardware_concurrency());

  // --- 1. first launch (JIT) and cached launch of a vector add ---------------
  float *x = sycl::malloc_shared<float>(kVectorElements, q);
  float *y = sycl::malloc_shared<float>(kVectorElements, q);
  float *sum = sycl::malloc_shared<float>(kVectorElements, q);
  for (size_t i = 0; i < kVectorElements; ++i) {
    x[i] = float(i);
    y[i] = 2.0f * float(i);
  }
  VectorAdd vectorAdd{x, y, sum};
  FirstAndCached first = launchVectorAdd(q, vectorAdd);
  FirstAndCached cached = launchVectorAdd(q, vectorAdd);
  size_t wrong = 0;
  for (size_t i = 0; i < kVectorElements; ++i) wrong += sum[i] != 3.0f * float(i);
  sycl::free(x, q);
  sycl::free(y, q);
  sycl::free(sum, q);
  if (wrong) {
    std::printf("ERROR: vector add computed %zu wrong values\n", wrong);
    return 1;
  }
  std::printf("vector add 2^20 floats, first launch (JIT incl.): %10.1f us  (submit call %.1f us)\n", first.totalUs,
              first.submitUs);
  std::printf("vector add 2^20 floats, cached launch:            %10.1f us  (submit call %.1f us)\n", cached.totalUs,
              cached.submitUs);
  std::printf("vector add JIT cost (first - cached):             %10.1f us  = %.1f ms\n",
              first.totalUs - cached.totalUs, (first.totalUs - cached.totalUs) / 1000.0);

  // --- 2. launch overhead of cached empty kernels ----------------------------
  auto startTask = Clock::now();
  q.single_task(EmptyTask{}).wait();
  double firstTaskUs = microseconds(startTask, Clock::now());
  auto startItem = Clock::now();
  q.parallel_for(sycl::range<1>(1), EmptyItem{}).wait();
  double firstItemUs = microseconds(startItem, Clock::now());
  std::printf("empty single_task, first launch (JIT incl.):      %10.1f us\n", firstTaskUs);
  std::printf("empty parallel_for(1), first launch (JIT incl.):  %10.1f us\n", firstItemUs);

  auto launchTask = [&] { q.single_task(EmptyTask{}).wait(); };
  auto launchItem = [&] { q.parallel_for(sycl::range<1>(1), EmptyItem{}).wait(); };
  const std::vector<int> cpus = allowedCpus();
  const bool pinning = cpus.size() >= 2;
  const int perRound = kRepetitions / kRounds;
  std::vector<double> warmup, handoffUs, sameCoreUs, twoCoresUs, plainCallUs, taskUs, itemUs;
  timeEach(warmup, 1000, launchTask);
  timeEach(warmup, 1000, launchItem);
  for (int round = 0; round < kRounds; ++round) {
    {
      ThreadHandoff handoff;
      timeEach(warmup, 100, [&] { handoff.roundTrip(); });
      timeEach(handoffUs, perRound, [&] { handoff.roundTrip(); });
    }
    timeEach(taskUs, perRound, launchTask);
    timeEach(itemUs, perRound, launchItem);
    timeEach(plainCallUs, perRound, callEmptyBody);
    if (pinning) {
      PinnedScope pinned(cpus[0]);
      ThreadHandoff sameCore(cpus[0]), twoCores(cpus[1]);
      timeEach(warmup, 100, [&] { sameCore.roundTrip(); });
      timeEach(sameCoreUs, perRound, [&] { sameCore.roundTrip(); });
      timeEach(warmup, 100, [&] { twoCores.roundTrip(); });
      timeEach(twoCoresUs, perRound, [&] { twoCores.roundTrip(); });
    }
  }
  auto loopStart = Clock::now();
  for (int i = 0; i < kRepetitions; ++i) callEmptyBody();
  double plainCallLoopNs = 1000.0 * microseconds(loopStart, Clock::now()) / kRepetitions;

  // --- 3. throughput on an in-order queue -----------------------------------
  sycl::queue inOrder(sycl::property_list{sycl::property::queue::in_order{}});
  TaskQueue taskQueue;
  taskQueue.run(1000);  // warm-up
  inOrderThroughput(inOrder, 1000);
  std::vector<double> queue1k, queue10k, inOrder1k, inOrder10k;
  for (int round = 0; round < kThroughputRounds; ++round) {
    queue1k.push_back(taskQueue.run(1000));
    inOrder1k.push_back(inOrderThroughput(inOrder, 1000));
    queue10k.push_back(taskQueue.run(kRepetitions));
    inOrder10k.push_back(inOrderThroughput(inOrder, kRepetitions));
  }

  // With a single CPU, every handoff is a same-core one.
  const std::vector<double> &referenceUs = pinning ? sameCoreUs : handoffUs;
  const double handoffMedian = median(referenceUs);
  auto printSamples = [](const char *label, const std::vector<double> &samples) {
    std::printf("%-61s median %7.3f us   p90 %7.3f us\n", label, median(samples), percentile90(samples));
  };
  std::printf("\n");
  printSamples("reference: cv round trip between 2 threads on one core:", referenceUs);
  if (pinning) printSamples("           the same, threads pinned to two cores:", twoCoresUs);
  printSamples("           the same, placement left to the OS:", handoffUs);
  printSamples("reference: plain call of the empty body, timed the same way:", plainCallUs);
  std::printf("           (untimed loop: %.1f ns per call)\n", plainCallLoopNs);
  std::printf("reference: std::function task queue drained by a worker thread: %.3f us per task (1000 tasks), "
              "%.3f us (%d tasks)\n",
              median(queue1k), median(queue10k), kRepetitions);

  std::printf("\nlaunch overhead, cached kernels, submit+wait, %d launches each:\n", kRepetitions);
  std::printf("  single_task([]{}):            median %7.2f us   p90 %7.2f us   = %5.2fx cv round trip\n",
              median(taskUs), percentile90(taskUs), median(taskUs) / handoffMedian);
  std::printf("  parallel_for(range<1>(1)):    median %7.2f us   p90 %7.2f us   = %5.2fx cv round trip\n",
              median(itemUs), percentile90(itemUs), median(itemUs) / handoffMedian);
  std::printf("in-order queue, back-to-back single_task then one wait (median of %d batches):\n", kThroughputRounds);
  std::printf("  %5d submissions:            %7.2f us per submission  = %5.2fx cv round trip, %6.2fx task queue\n",
              1000, median(inOrder1k), median(inOrder1k) / handoffMedian, median(inOrder1k) / median(queue1k));
  std::printf("  %5d submissions:            %7.2f us per submission  = %5.2fx cv round trip, %6.2fx task queue\n",
              kRepetitions, median(inOrder10k), median(inOrder10k) / handoffMedian,
              median(inOrder10k) / median(queue10k));
  std::printf("launch ratio (to a one-core cv round trip) single_task=%.2fx parallel_for=%.2fx in_order=%.2fx; "
              "in_order to a task queue=%.2fx\n",
              median(taskUs) / handoffMedian, median(itemUs) / handoffMedian, median(inOrder10k) / handoffMedian,
              median(inOrder10k) / median(queue10k));
  return 0;
}
