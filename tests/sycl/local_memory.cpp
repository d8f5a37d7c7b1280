// Work-group local memory and barriers (SYCL 2020 §4.7.6.11, §4.9.1.5,
// §4.17.1): a tree reduction per work-group in a local_accessor, a tile
// transpose through a 2-D local_accessor with group_barrier, several local
// accessors of one command group (each aligned for its type), barriers in
// control flow that is uniform per work-group, and the
// errors: a local accessor in a range kernel, more local memory than the
// device has. On the CPU, kernels with barriers run as resumable steps per
// work-item (jit/targets/cpu/BarrierLowering.h).
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

constexpr std::size_t kGroup = 128;

// Sums each work-group's values in local memory: log2(kGroup) halving steps,
// a barrier between each.
sycl::event groupSums(sycl::queue &q, const int *in, int *sums, std::size_t count) {
  return q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> scratch(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(count, kGroup), [=](sycl::nd_item<1> it) {
      const std::size_t local = it.get_local_id(0);
      scratch[local] = in[it.get_global_id(0)];
      for (std::size_t half = kGroup / 2; half > 0; half /= 2) {
        it.barrier(sycl::access::fence_space::local_space);
        if (local < half) scratch[local] += scratch[local + half];
      }
      if (local == 0) sums[it.get_group(0)] = scratch[0];
    });
  });
}

void reduction(sycl::queue &q) {
  const std::size_t count = 64 * kGroup;
  int *in = sycl::malloc_shared<int>(count, q);
  int *sums = sycl::malloc_shared<int>(count / kGroup, q);
  for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<int>(i % 1000) - 300;
  groupSums(q, in, sums, count).wait_and_throw();
  int wrong = 0;
  for (std::size_t g = 0; g < count / kGroup; ++g) {
    int expected = 0;
    for (std::size_t i = g * kGroup; i < (g + 1) * kGroup; ++i) expected += in[i];
    wrong += sums[g] != expected;
  }
  checkEqual("work-group sums through a local_accessor and barriers: wrong groups", 0, wrong);
  sycl::free(in, q);
  sycl::free(sums, q);
}

// One kernel launched with several work-group sizes in a row, from one
// thread: the CPU compiles an nd_range kernel per work-group range (its
// loops over a group's work-items get constant trip counts), so each launch
// must run the binary built for its own range, not the last one's. Twice:
// with a local accessor (whose range is a launch constant too) and with a
// group reduction alone (a kernel without launch constants, which the queue
// otherwise hands the backend's last prepared binary).
void severalGroupSizes(sycl::queue &q) {
  const std::size_t count = 1024;
  int *in = sycl::malloc_shared<int>(count, q);
  int *sums = sycl::malloc_shared<int>(count, q);
  for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<int>(i % 37) - 11;
  const std::size_t most = q.get_device().get_info<sycl::info::device::max_work_group_size>();
  const std::size_t sizes[] = {64, 16, 128, 16, 64, 256};
  auto checkSums = [&](const std::string &what, std::size_t size) {
    int wrong = 0;
    for (std::size_t g = 0; g < count / size; ++g) {
      int expected = 0;
      for (std::size_t i = g * size; i < (g + 1) * size; ++i) expected += in[i];
      wrong += sums[g] != expected;
    }
    checkEqual("one kernel, " + what + " over work-groups of " + std::to_string(size) + ": wrong group sums", 0, wrong);
  };
  for (std::size_t size : sizes) {
    if (size > most) continue;
    q.submit([&](sycl::handler &h) {
       sycl::local_accessor<int, 1> scratch(sycl::range<1>(size), h);
       h.parallel_for(sycl::nd_range<1>(count, size), [=](sycl::nd_item<1> it) {
         const std::size_t local = it.get_local_id(0);
         scratch[local] = in[it.get_global_id(0)];
         for (std::size_t half = it.get_local_range(0) / 2; half > 0; half /= 2) {
           it.barrier(sycl::access::fence_space::local_space);
           if (local < half) scratch[local] += scratch[local + half];
         }
         if (local == 0) sums[it.get_group(0)] = scratch[0];
       });
     }).wait_and_throw();
    checkSums("a local accessor", size);
  }
  for (std::size_t size : sizes) {
    if (size > most) continue;
    q.parallel_for(sycl::nd_range<1>(count, size), [=](sycl::nd_item<1> it) {
       const int sum = sycl::reduce_over_group(it.get_group(), in[it.get_global_id(0)], sycl::plus<int>());
       if (it.get_local_id(0) == 0) sums[it.get_group(0)] = sum;
     }).wait_and_throw();
    checkSums("reduce_over_group", size);
  }
  sycl::free(in, q);
  sycl::free(sums, q);
}

// One kernel with one work-group range whose local accessor's range changes
// from launch to launch (a launch constant: the runtime's per-thread memory of
// the last binary must tell the launches apart by its value).
void accessorRangeAlternates(sycl::queue &q) {
  int *seen = sycl::malloc_shared<int>(4, q);
  const std::size_t ranges[] = {8, 24, 8, 24, 24, 8};
  int wrong = 0;
  for (std::size_t range : ranges) {
    q.submit([&](sycl::handler &h) {
       sycl::local_accessor<int, 1> scratch(sycl::range<1>(range), h);
       h.parallel_for(sycl::nd_range<1>(16, 4), [=](sycl::nd_item<1> it) {
         const std::size_t local = it.get_local_id(0);
         for (std::size_t i = local; i < scratch.size(); i += 4) scratch[i] = static_cast<int>(i);
         it.barrier(sycl::access::fence_space::local_space);
         if (local == 0) {
           int sum = 0;
           for (std::size_t i = 0; i < scratch.size(); ++i) sum += scratch[i];
           seen[it.get_group(0)] = sum;
         }
       });
     }).wait_and_throw();
    const int expected = static_cast<int>(range * (range - 1) / 2);
    for (int g = 0; g < 4; ++g) wrong += seen[g] != expected;
  }
  checkEqual("one kernel, local accessor ranges 8 and 24 alternating: wrong group sums", 0, wrong);
  sycl::free(seen, q);
}

// A 1-D three-point sum through a tile with a halo: the group's first and
// last work-items also load their outer neighbours (zero past the ends). The
// CPU runs those two apart from the loop over the others; on GPUs the
// neighbours' loads are issued with the work-item's own. Groups of 16, 3
// and 2 (too few to run the edges apart).
void haloTile(sycl::queue &q) {
  for (std::size_t size : {16, 3, 2}) {
    const std::size_t count = size * 40;
    int *in = sycl::malloc_shared<int>(count, q), *out = sycl::malloc_shared<int>(count, q);
    for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<int>((i * 37) % 101) - 50;
    q.submit([&](sycl::handler &h) {
       sycl::local_accessor<int, 1> tile(sycl::range<1>(size + 2), h);
       h.parallel_for(sycl::nd_range<1>(count, size), [=](sycl::nd_item<1> it) {
         const std::size_t g = it.get_global_id(0), l = it.get_local_id(0), last = it.get_local_range(0) - 1;
         tile[l + 1] = in[g];
         if (l == 0) tile[0] = g > 0 ? in[g - 1] : 0;
         if (l == last) tile[last + 2] = g + 1 < count ? in[g + 1] : 0;
         it.barrier(sycl::access::fence_space::local_space);
         out[g] = tile[l] + tile[l + 1] + tile[l + 2];
       });
     }).wait_and_throw();
    int wrong = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const int expected = (i > 0 ? in[i - 1] : 0) + in[i] + (i + 1 < count ? in[i + 1] : 0);
      wrong += out[i] != expected;
    }
    checkEqual("three-point sums through a tile with a halo, groups of " + std::to_string(size) + ": wrong", 0, wrong);
    sycl::free(in, q);
    sycl::free(out, q);
  }
}

// Local memory a kernel allocates itself (sycl_ext_oneapi_group_local_memory),
// beside a local accessor of its command group: a tile every work-item
// writes and another reads back, a counter the group's leader constructs and
// every work-item adds to, and the accessor's own values, which the others
// must not overwrite.
struct Counter {
  int value;
  int step;
  Counter(int start, int by) : value(start), step(by) {}
};

// A kernel with `Bytes` of group_local_memory.
template <std::size_t Bytes> void groupLocalMemoryOf(sycl::queue &q, std::size_t size, int *out) {
  q.parallel_for(sycl::nd_range<1>(size, size), [=](sycl::nd_item<1> it) {
    char(*huge)[Bytes] = sycl::ext::oneapi::group_local_memory_for_overwrite<char[Bytes]>(it.get_group());
    (*huge)[it.get_local_id(0)] = 1;
    out[it.get_global_id(0)] = (*huge)[0];
  });
}

void groupLocalMemory(sycl::queue &q) {
  namespace oneapi = sycl::ext::oneapi;
  constexpr std::size_t size = 64, count = 4 * size;
  int *out = sycl::malloc_shared<int>(count, q);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 1> own(sycl::range<1>(size), h);
     h.parallel_for(sycl::nd_range<1>(count, size), [=](sycl::nd_item<1> it) {
       const int local = static_cast<int>(it.get_local_id(0)), global = static_cast<int>(it.get_global_id(0));
       int(*tile)[size] = oneapi::group_local_memory_for_overwrite<int[size]>(it.get_group());
       Counter *counter = oneapi::group_local_memory<Counter>(it.get_group(), 1000, 3);
       own[local] = -global;
       (*tile)[local] = global;
       sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                        sycl::access::address_space::local_space>(counter->value) += counter->step;
       it.barrier();
       out[global] = (*tile)[size - 1 - local] + counter->value + own[local] * 1000000;
     });
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t group = i / size, local = i % size;
    const int expected = static_cast<int>(group * size + size - 1 - local) + 1000 + 3 * static_cast<int>(size) -
                         static_cast<int>(i) * 1000000;
    wrong += out[i] != expected;
  }
  checkEqual("group_local_memory beside a local accessor: wrong work-items", 0, wrong);
  // Beyond the device's local memory, with the accessors: before anything runs.
  // (PoCL's local memory follows the CPU's caches: more than 1 MiB on some machines.)
  const std::size_t most = q.get_device().get_info<sycl::info::device::local_mem_size>();
  const std::size_t tooMuch = most < (std::size_t(1) << 20) ? std::size_t(1) << 20 : std::size_t(1) << 28;
  check("that test's allocation is more than the device has", tooMuch > most);
  checkThrows("group_local_memory of more than the device's local memory", sycl::errc::memory_allocation, [&] {
    if (tooMuch == (std::size_t(1) << 20)) groupLocalMemoryOf<std::size_t(1) << 20>(q, size, out);
    else groupLocalMemoryOf<std::size_t(1) << 28>(q, size, out);
  });
  sycl::free(out, q);
}

// out = transpose(in) through a 16x16 tile in local memory: each work-item
// writes one element of the tile and, after the barrier, reads another's.
void transpose(sycl::queue &q) {
  constexpr std::size_t n = 64, tile = 16;
  float *in = sycl::malloc_shared<float>(n * n, q);
  float *out = sycl::malloc_shared<float>(n * n, q);
  for (std::size_t i = 0; i < n * n; ++i) in[i] = static_cast<float>(i);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<float, 2> block(sycl::range<2>(tile, tile + 1), h);  // padded, as on a GPU
     h.parallel_for(sycl::nd_range<2>({n, n}, {tile, tile}), [=](sycl::nd_item<2> it) {
       const std::size_t r = it.get_local_id(0), c = it.get_local_id(1);
       block[r][c] = in[it.get_global_id(0) * n + it.get_global_id(1)];
       sycl::group_barrier(it.get_group());
       // The transposed tile goes to the mirrored group.
       const std::size_t row = it.get_group(1) * tile + r, column = it.get_group(0) * tile + c;
       out[row * n + column] = block[sycl::id<2>(c, r)];
     });
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) wrong += out[i * n + j] != in[j * n + i];
  checkEqual("64x64 transpose through a 2-D local_accessor and group_barrier: wrong elements", 0, wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

// Three local accessors in one command group: a char, 8 doubles (aligned
// for double after the char) and a 0-D int. Each group fills them and reads
// them back after a barrier.
void severalAccessors(sycl::queue &q) {
  constexpr std::size_t groups = 8, size = 32;
  int *ok = sycl::malloc_shared<int>(groups * size, q);
  std::size_t *addresses = sycl::malloc_shared<std::size_t>(3, q);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<char, 1> flag(sycl::range<1>(1), h);
     sycl::local_accessor<double, 1> values(sycl::range<1>(8), h);
     sycl::local_accessor<int, 0> counter(h);
     h.parallel_for(sycl::nd_range<1>(groups * size, size), [=](sycl::nd_item<1> it) {
       const std::size_t local = it.get_local_id(0);
       if (local == 0) {
         flag[0] = 'x';
         counter = static_cast<int>(it.get_group(0));
         if (it.get_group(0) == 0) {
           addresses[0] = reinterpret_cast<std::size_t>(&flag[0]);
           addresses[1] = reinterpret_cast<std::size_t>(&values[0]);
           addresses[2] = reinterpret_cast<std::size_t>(&static_cast<int &>(counter));
         }
       }
       if (local < 8) values[local] = 0.5 * static_cast<double>(local + it.get_group(0));
       it.barrier();
       const double expected = 0.5 * static_cast<double>(local % 8 + it.get_group(0));
       ok[it.get_global_id(0)] = flag[0] == 'x' && values[local % 8] == expected &&
                                 static_cast<int>(counter) == static_cast<int>(it.get_group(0));
     });
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t i = 0; i < groups * size; ++i) wrong += ok[i] != 1;
  checkEqual("three local accessors of one command group: wrong work-items", 0, wrong);
  check("the double accessor is aligned for double", addresses[1] % alignof(double) == 0);
  check("the accessors do not overlap",
        addresses[1] >= addresses[0] + 1 && addresses[2] >= addresses[1] + 8 * sizeof(double));
  sycl::free(ok, q);
  sycl::free(addresses, q);
}

// Rotates the group's values by one place through local memory; a function
// of its own that the optimizer may keep out of line.
[[gnu::noinline]] int rotate(const sycl::nd_item<1> &it, const sycl::local_accessor<int, 1> &scratch, int value) {
  const std::size_t local = it.get_local_id(0), size = it.get_local_range(0);
  scratch[local] = value;
  sycl::group_barrier(it.get_group());
  const int result = scratch[(local + 1) % size];
  sycl::group_barrier(it.get_group());
  return result;
}

// Barriers in control flow that is uniform per work-group: a branch on the
// group, a loop whose trip count depends on the group, a called function;
// private arrays and loop-carried values live across them.
void uniformControlFlow(sycl::queue &q) {
  constexpr std::size_t groups = 12, size = 64;
  int *out = sycl::malloc_shared<int>(groups * size, q);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 1> scratch(sycl::range<1>(size), h);
     h.parallel_for(sycl::nd_range<1>(groups * size, size), [=](sycl::nd_item<1> it) {
       const int global = static_cast<int>(it.get_global_id(0));
       const std::size_t group = it.get_group(0);
       int own[4];
       for (int k = 0; k < 4; ++k) own[k] = global * (k + 1);
       int value = own[1];
       if (group % 2 == 0) {
         value = rotate(it, scratch, value) + own[3];
       } else {
         scratch[it.get_local_id(0)] = value;
         it.barrier();
         value = scratch[size - 1 - it.get_local_id(0)] - own[0];
         it.barrier();  // everyone has read before anyone writes again
       }
       for (std::size_t round = 0; round < group % 3; ++round) value = rotate(it, scratch, value) + 1;
       out[global] = value;
     });
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<int> values(size);
    for (std::size_t l = 0; l < size; ++l) {
      const int global = static_cast<int>(g * size + l);
      if (g % 2 == 0) values[l] = static_cast<int>(g * size + (l + 1) % size) * 2 + global * 4;
      else values[l] = static_cast<int>(g * size + size - 1 - l) * 2 - global;
    }
    for (std::size_t round = 0; round < g % 3; ++round) {
      std::vector<int> next(size);
      for (std::size_t l = 0; l < size; ++l) next[l] = values[(l + 1) % size] + 1;
      values = next;
    }
    for (std::size_t l = 0; l < size; ++l) wrong += out[g * size + l] != values[l];
  }
  checkEqual("barriers in group-uniform branches, loops and a called function: wrong work-items", 0, wrong);
  sycl::free(out, q);
}

// Work-items that return before the group's first barrier: not conforming
// SYCL (every work-item must reach every barrier), but the CPU device lets
// the others go on (its groups then run "apart", each work-item from where it
// stopped), and a loop counter that is the same for the whole group survives
// the parting.
void earlyReturn(sycl::queue &q) {
  // (OnePass's own CPU device only: an OpenCL CPU device may do anything.)
  if (q.get_device().get_backend() != sycl::backend::ext_onepass_cpu) return;
  constexpr std::size_t groups = 4, size = 64, staying = 48;
  int *out = sycl::malloc_shared<int>(groups * size, q);
  for (std::size_t i = 0; i < groups * size; ++i) out[i] = -1;
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 1> scratch(sycl::range<1>(size), h);
     h.parallel_for(sycl::nd_range<1>(groups * size, size), [=](sycl::nd_item<1> it) {
       const std::size_t lid = it.get_local_id(0);
       if (lid >= staying) return;
       int value = static_cast<int>(it.get_global_id(0));
       for (int round = 0; round < 3; ++round) {
         scratch[lid] = value;
         it.barrier();
         value = scratch[(lid + 1) % staying] + round;
         it.barrier();
       }
       out[it.get_global_id(0)] = value;
     });
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<int> values(staying);
    for (std::size_t l = 0; l < staying; ++l) values[l] = static_cast<int>(g * size + l);
    for (int round = 0; round < 3; ++round) {
      std::vector<int> next(staying);
      for (std::size_t l = 0; l < staying; ++l) next[l] = values[(l + 1) % staying] + round;
      values = next;
    }
    for (std::size_t l = 0; l < size; ++l) wrong += out[g * size + l] != (l < staying ? values[l] : -1);
  }
  checkEqual("work-items returning before a barrier (CPU): wrong work-items", 0, wrong);
  sycl::free(out, q);
}

// group_barrier with a fence scope wider than the group (device): the
// group's exchange through global memory still sees every write before it.
void deviceScopeBarrier(sycl::queue &q) {
  constexpr std::size_t groups = 8, size = 32;
  int *data = sycl::malloc_shared<int>(groups * size, q), *out = sycl::malloc_shared<int>(groups * size, q);
  q.parallel_for(sycl::nd_range<1>(groups * size, size), [=](sycl::nd_item<1> it) {
     const std::size_t i = it.get_global_id(0), base = i - it.get_local_id(0);
     data[i] = static_cast<int>(i) * 5;
     sycl::group_barrier(it.get_group(), sycl::memory_scope::device);
     out[i] = data[base + (it.get_local_id(0) + 1) % size];
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t i = 0; i < groups * size; ++i)
    wrong += out[i] != static_cast<int>((i / size) * size + (i % size + 1) % size) * 5;
  checkEqual("group_barrier at device scope: wrong work-items", 0, wrong);
  sycl::free(data, q);
  sycl::free(out, q);
}

// §4.7.6.11.2: local_accessor<T> converts to local_accessor<const T>, which
// reads the same work-group memory (and not the other way).
void readOnlyConversion(sycl::queue &q) {
  static_assert(std::is_convertible_v<sycl::local_accessor<int, 2>, sycl::local_accessor<const int, 2>>);
  static_assert(!std::is_convertible_v<sycl::local_accessor<const int, 1>, sycl::local_accessor<int, 1>>);
  int *out = sycl::malloc_shared<int>(kGroup, q);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 1> scratch(sycl::range<1>(kGroup), h);
     sycl::local_accessor<const int, 1> view = scratch;
     h.parallel_for(sycl::nd_range<1>(kGroup, kGroup), [=](sycl::nd_item<1> it) {
       const std::size_t i = it.get_local_id(0);
       scratch[i] = static_cast<int>(i) * 2;
       sycl::group_barrier(it.get_group());
       out[i] = view[kGroup - 1 - i];
     });
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t i = 0; i < kGroup; ++i) wrong += out[i] != static_cast<int>(kGroup - 1 - i) * 2;
  checkEqual("local_accessor<const int> converted from local_accessor<int>: wrong reads", 0, wrong);
  sycl::free(out, q);
}

void errors(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(kGroup, q);
  checkThrows("a local_accessor in a parallel_for over a range", sycl::errc::kernel_argument, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<int, 1> scratch(sycl::range<1>(kGroup), h);
      h.parallel_for(sycl::range<1>(kGroup), [=](sycl::id<1> i) {
        scratch[i] = 1;
        out[i] = scratch[i];
      });
    });
  });
  // Captured but unused: still errc::kernel_argument (§4.7.6.11), nothing runs.
  out[0] = 5;
  checkThrows("a local_accessor captured, unused, by a single_task", sycl::errc::kernel_argument, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<int, 1> scratch(sycl::range<1>(kGroup), h);
      h.single_task([=] {
        (void)scratch;
        out[0] = 6;
      });
    });
  });
  checkEqual("the single_task with a local_accessor did not run", 5, out[0]);
  const std::size_t available = q.get_device().get_info<sycl::info::device::local_mem_size>();
  checkThrows("a local_accessor larger than the device's local memory", sycl::errc::memory_allocation, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<char, 1> huge(sycl::range<1>(available + 1), h);
      h.parallel_for(sycl::nd_range<1>(kGroup, kGroup), [=](sycl::nd_item<1> it) {
        huge[it.get_local_id(0)] = 1;
        it.barrier();
        out[it.get_local_id(0)] = huge[kGroup - 1 - it.get_local_id(0)];
      });
    });
  });
  // Local accessors the kernel does not capture cost it nothing: a command
  // group may construct more than the device has beside a single_task.
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<char, 1> unused(sycl::range<1>(available + 1), h);
     sycl::local_accessor<int, 1> unused2(sycl::range<1>(available), h);
     h.single_task([=] { out[0] = 7; });
   }).wait();
  checkEqual("a single_task beside local accessors larger than local memory ran", 7, out[0]);
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  const sycl::device device = q.get_device();
  std::printf("local memory and barriers on '%s'\n", device.get_info<sycl::info::device::name>().c_str());
  reduction(q);
  severalGroupSizes(q);
  accessorRangeAlternates(q);
  haloTile(q);
  groupLocalMemory(q);
  transpose(q);
  severalAccessors(q);
  uniformControlFlow(q);
  earlyReturn(q);
  deviceScopeBarrier(q);
  readOnlyConversion(q);
  errors(q);
  return onepass_test::report();
}
