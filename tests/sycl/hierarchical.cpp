// Hierarchical parallelism (SYCL 2020 §4.9.4.2.4, deprecated but still in the
// spec): parallel_for_work_group with and without a work-group size,
// parallel_for_work_item over the group and over a logical range (h_item's
// global, physical and logical items), work-group scope variables shared by
// the group's work-items, ordered parallel_for_work_item calls, a kernel that
// takes a kernel_handler; and async_work_group_copy / wait_for (§4.9.1.7) in
// nd_range and hierarchical kernels, with strides, over vec elements that
// need 128-byte alignment in local memory.
#include "check.h"

#include <sycl/sycl.hpp>

#include <string>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

constexpr sycl::specialization_id<int> kScale(3);

void hierarchical2d(sycl::queue &q) {
  constexpr std::size_t G0 = 3, G1 = 2, L0 = 2, L1 = 4;
  constexpr std::size_t total = G0 * G1 * L0 * L1;
  int *ids = sycl::malloc_shared<int>(total, q);
  int *logical = sycl::malloc_shared<int>(G0 * G1 * 5 * 3, q);
  int *sums = sycl::malloc_shared<int>(G0 * G1, q);
  q.submit([&](sycl::handler &h) {
     h.parallel_for_work_group(sycl::range<2>(G0, G1), sycl::range<2>(L0, L1), [=](sycl::group<2> g) {
       int count = 0;  // work-group scope: one variable for the group
       int seen[L0 * L1];
       g.parallel_for_work_item([&](sycl::h_item<2> it) {
         const std::size_t linear = it.get_global_id(0) * (G1 * L1) + it.get_global_id(1);
         ids[linear] = static_cast<int>(g.get_group_linear_id() * 100 + it.get_local().get_linear_id());
         seen[it.get_local().get_linear_id()] = 1;  // (the work-items may run at once: each its own element)
       });
       for (std::size_t i = 0; i < L0 * L1; ++i) count += seen[i];
       // The second call starts after the first is over: count saw every work-item.
       g.parallel_for_work_item(sycl::range<2>(5, 3), [&](sycl::h_item<2> it) {
         const std::size_t at = g.get_group_linear_id() * 15 + it.get_logical_local().get_linear_id();
         logical[at] = static_cast<int>(it.get_physical_local_id(0) * 10 + it.get_physical_local_id(1)) + 1000 * count;
       });
       sums[g.get_group_linear_id()] = count + 100 * static_cast<int>(g.get_local_range().size()) +
                                       10000 * static_cast<int>(g.get_global_range(1));
     });
   }).wait();
  checkArray("2-D work-items' group and local ids", total, ids, [&](std::size_t i) {
    const std::size_t r = i / (G1 * L1), c = i % (G1 * L1);
    return static_cast<int>((r / L0 * G1 + c / L1) * 100 + (r % L0) * L1 + c % L1);
  });
  checkArray("logical range 5x3 over physical 2x4", G0 * G1 * 15, logical, [&](std::size_t i) {
    const std::size_t l = i % 15, l0 = l / 3, l1 = l % 3;
    return static_cast<int>((l0 % L0) * 10 + (l1 % L1)) + 1000 * static_cast<int>(L0 * L1);
  });
  checkArray("work-group scope count", G0 * G1, sums,
             [&](std::size_t) { return static_cast<int>(L0 * L1 + 100 * L0 * L1 + 10000 * G1 * L1); });
  sycl::free(ids, q);
  sycl::free(logical, q);
  sycl::free(sums, q);
}

void hierarchicalDefaults(sycl::queue &q) {
  // Without a work-group size: the runtime's choice (1 in OnePass); a
  // kernel_handler parameter reads the command group's constants.
  int *out = sycl::malloc_shared<int>(8, q);
  q.submit([&](sycl::handler &h) {
     h.set_specialization_constant<kScale>(7);
     h.parallel_for_work_group(sycl::range<1>(8), [=](sycl::group<1> g, sycl::kernel_handler kh) {
       int items = 0;
       g.parallel_for_work_item([&](sycl::h_item<1>) { ++items; });
       out[g.get_group_id(0)] = static_cast<int>(g.get_group_id(0)) * kh.get_specialization_constant<kScale>() +
                                100 * items + 1000 * static_cast<int>(g.get_local_range(0));
     });
   }).wait();
  checkArray("work groups of the runtime's size", 8, out,
             [](std::size_t i) { return static_cast<int>(i * 7 + 100 + 1000); });
  sycl::free(out, q);
  checkThrows("parallel_for_work_group with an empty work-group size", sycl::errc::nd_range, [&] {
    q.submit([&](sycl::handler &h) {
      h.parallel_for_work_group(sycl::range<1>(2), sycl::range<1>(0), [=](sycl::group<1>) {});
    });
  });
}

// Each work-group copies its part of `src` into local memory (every
// `stride`-th element), back out doubled to `dst` with the destination
// stride, and checks what it read.
template <typename T> void asyncCopyNdRange(sycl::queue &q, const std::string &what) {
  constexpr std::size_t groups = 3, local = 8, n = 16, stride = 2;
  sycl::buffer<T, 1> src{sycl::range<1>(groups * n * stride)}, dst{sycl::range<1>(groups * n * stride)};
  {
    sycl::host_accessor s(src, sycl::write_only), d(dst, sycl::write_only);
    for (std::size_t i = 0; i < groups * n * stride; ++i) {
      s[i] = T(static_cast<int>(i));
      d[i] = T(-1);
    }
  }
  q.submit([&](sycl::handler &h) {
    sycl::accessor s(src, h, sycl::read_write);
    sycl::accessor d(dst, h, sycl::read_write);
    sycl::local_accessor<T, 1> tile(sycl::range<1>(n), h);
    h.parallel_for(sycl::nd_range<1>(groups * local, local), [=](sycl::nd_item<1> it) {
      const std::size_t base = it.get_group(0) * n * stride;
      auto tilePtr = tile.template get_multi_ptr<sycl::access::decorated::yes>();
      auto in = it.async_work_group_copy(tilePtr, s.template get_multi_ptr<sycl::access::decorated::yes>() + base,
                                         n, stride);
      it.wait_for(in);
      for (std::size_t i = it.get_local_id(0); i < n; i += local) tile[i] = tile[i] + tile[i];
      sycl::group_barrier(it.get_group());
      auto out = it.get_group().async_work_group_copy(
          d.template get_multi_ptr<sycl::access::decorated::yes>() + base, tilePtr, n, stride);
      it.get_group().wait_for(out);
    });
  });
  sycl::host_accessor d(dst, sycl::read_only);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < groups * n * stride; ++i) {
    const T want = i % stride == 0 ? T(static_cast<int>(2 * i)) : T(-1);
    bool same = true;
    if constexpr (sycl::detail::is_vec_v<T>) {
      for (int k = 0; k < static_cast<int>(T::size()); ++k) same = same && d[i][k] == want[k];
    } else {
      same = d[i] == want;
    }
    bad += !same;
  }
  checkEqual(what + ": strided async_work_group_copy in and out, elements wrong", std::size_t(0), bad);
}

void asyncCopyHierarchical(sycl::queue &q) {
  constexpr std::size_t groups = 4, n = 12;
  int *data = sycl::malloc_shared<int>(groups * n, q);
  for (std::size_t i = 0; i < groups * n; ++i) data[i] = static_cast<int>(i);
  sycl::buffer<int, 1> result{sycl::range<1>(groups * n)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor out(result, h, sycl::write_only);
    sycl::local_accessor<int, 1> tile(sycl::range<1>(n), h);
    h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(4), [=](sycl::group<1> g) {
      auto src = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::yes>(
          data + g.get_group_id(0) * n);
      g.wait_for(g.async_work_group_copy(tile.get_multi_ptr<sycl::access::decorated::yes>(), src, n));
      g.parallel_for_work_item(sycl::range<1>(n), [&](sycl::h_item<1> it) {
        const std::size_t i = it.get_logical_local_id(0);
        out[g.get_group_id(0) * n + i] = tile[n - 1 - i] * 3;
      });
    });
  });
  sycl::host_accessor r(result, sycl::read_only);
  checkArray("hierarchical async_work_group_copy", groups * n, &r[0], [&](std::size_t i) {
    return static_cast<int>((i / n * n + (n - 1 - i % n)) * 3);
  });
  sycl::free(data, q);
}

// private_memory (§4.9.4.2.3): one T per physical work-item, default
// constructed, kept from one parallel_for_work_item to the next; a logical
// range larger than the group shares them by physical id. Work-groups larger
// than private_memory's capacity are errc::nd_range.
struct sevenByDefault {
  int n = 7;
};
void privateMemory(sycl::queue &q) {
  constexpr std::size_t groups = 3, local = 4, total = groups * local;
  std::size_t *out = sycl::malloc_shared<std::size_t>(2 * total, q);
  q.submit([&](sycl::handler &h) {
     h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(local), [=](sycl::group<1> g) {
       sycl::private_memory<std::size_t> mine(g);
       sycl::private_memory<sevenByDefault> defaults(g);
       g.parallel_for_work_item([&](sycl::h_item<1> it) { mine(it) = it.get_global_id(0) * 10 + defaults(it).n; });
       g.parallel_for_work_item([&](sycl::h_item<1> it) { out[it.get_global_id(0)] = mine(it); });
       // 8 logical work-items on 4 physical ones: logical i and i + 4 share one T.
       g.parallel_for_work_item(sycl::range<1>(2 * local), [&](sycl::h_item<1> it) {
         if (it.get_logical_local_id(0) >= local) mine(it) += 1000;
       });
       g.parallel_for_work_item([&](sycl::h_item<1> it) { out[total + it.get_global_id(0)] = mine(it); });
     });
   }).wait();
  checkArray("private_memory: each work-item's value", total, out, [](std::size_t i) { return i * 10 + 7; });
  checkArray("private_memory: shared by physical id", total, out + total,
             [](std::size_t i) { return i * 10 + 7 + 1000; });
  sycl::free(out, q);
  checkThrows("a hierarchical work-group beyond private_memory's capacity", sycl::errc::nd_range, [&] {
    q.submit([&](sycl::handler &h) {
       h.parallel_for_work_group(sycl::range<1>(1), sycl::range<1>(sycl::private_memory<int>::capacity + 1),
                                 [=](sycl::group<1>) {});
     }).wait();
  });
}

// What the work-group scope may do around parallel_for_work_item, as GPUs run
// it (one work-item runs the work-group scope, all of them each call): loops
// and branches around calls, an early return, arrays and values of the
// work-group scope read and written by the work-items, side effects once per
// group, a work-item function with its own array, a logical range larger
// than the group in 2-D.
void workGroupScope(sycl::queue &q) {
  constexpr std::size_t groups = 6, local = 32, rounds = 3;
  int *in = sycl::malloc_shared<int>(groups * local, q);
  int *out = sycl::malloc_shared<int>(groups * local, q);
  int *sums = sycl::malloc_shared<int>(groups, q);
  int *counter = sycl::malloc_shared<int>(1, q);
  for (std::size_t i = 0; i < groups * local; ++i) in[i] = static_cast<int>(i % 7);
  for (std::size_t i = 0; i < groups * local; ++i) out[i] = -1;
  for (std::size_t g = 0; g < groups; ++g) sums[g] = -1;
  *counter = 0;
  q.submit([&](sycl::handler &h) {
     h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(local), [=](sycl::group<1> g) {
       const std::size_t gid = g.get_group_id(0);
       sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> count(*counter);
       count.fetch_add(1);                                             // once per group
       if (gid == 5) return;                                           // this group writes nothing
       const int base = in[gid * local] + 10 * static_cast<int>(gid);  // the leader's value, used by every work-item
       int tile[local];
       g.parallel_for_work_item([&](sycl::h_item<1> it) {
         const std::size_t l = it.get_local_id(0);
         int mine[4];  // each work-item's own array
         for (int k = 0; k < 4; ++k) mine[k] = in[gid * local + (l + k) % local];
         tile[l] = mine[0] + mine[1] + mine[2] + mine[3] + base;
       });
       int total = 0;
       for (std::size_t rep = 0; rep < rounds; ++rep) {
         for (std::size_t l = 0; l < local; ++l) total += tile[l];
         if (gid % 2 == 0)  // a call under a branch of the work-group scope
           g.parallel_for_work_item([&](sycl::h_item<1> it) { tile[it.get_local_id(0)] += 1; });
       }
       g.parallel_for_work_item(sycl::range<1>(local / 2), [&](sycl::h_item<1> it) {
         const std::size_t l = it.get_logical_local_id(0);
         out[gid * local + l] = tile[l] + tile[l + local / 2];
       });
       sums[gid] = total;
     });
   }).wait();
  auto tileValue = [&](std::size_t g, std::size_t l) {
    int v = 0;
    for (std::size_t k = 0; k < 4; ++k) v += in[g * local + (l + k) % local];
    return v + in[g * local] + 10 * static_cast<int>(g);
  };
  checkEqual("work-group scope code runs once per group", static_cast<int>(groups), *counter);
  checkArray("work-group scope sums of what the work-items wrote, over a loop with calls", groups, sums,
             [&](std::size_t g) {
               if (g == 5) return -1;
               int total = 0;
               for (std::size_t rep = 0; rep < rounds; ++rep)
                 for (std::size_t l = 0; l < local; ++l) total += tileValue(g, l) + (g % 2 == 0 ? int(rep) : 0);
               return total;
             });
  checkArray("work-items reading the work-group scope's array", groups * local, out, [&](std::size_t i) {
    const std::size_t g = i / local, l = i % local;
    if (g == 5 || l >= local / 2) return -1;
    const int bump = g % 2 == 0 ? static_cast<int>(rounds) : 0;
    return tileValue(g, l) + tileValue(g, l + local / 2) + 2 * bump;
  });
  sycl::free(in, q);
  sycl::free(out, q);
  sycl::free(sums, q);
  sycl::free(counter, q);

  // 2-D: a logical range of 5x9 over groups of 4x8, with a kernel argument
  // and a value the leader loads; each logical item written once.
  constexpr std::size_t G0 = 2, G1 = 3, L0 = 4, L1 = 8, N0 = 5, N1 = 9;
  int *grid = sycl::malloc_shared<int>(G0 * G1 * N0 * N1, q);
  int *scale = sycl::malloc_shared<int>(1, q);
  *scale = 3;
  q.submit([&](sycl::handler &h) {
     h.parallel_for_work_group(sycl::range<2>(G0, G1), sycl::range<2>(L0, L1), [=](sycl::group<2> g) {
       const int factor = *scale;
       g.parallel_for_work_item(sycl::range<2>(N0, N1), [&](sycl::h_item<2> it) {
         const std::size_t at = g.get_group_linear_id() * N0 * N1 + it.get_logical_local().get_linear_id();
         grid[at] = factor * static_cast<int>(it.get_logical_local_id(0) * 100 + it.get_logical_local_id(1)) +
                    static_cast<int>(it.get_physical_local().get_linear_id()) * 100000;
       });
     });
   }).wait();
  checkArray("2-D logical range over a smaller group", G0 * G1 * N0 * N1, grid, [&](std::size_t i) {
    const std::size_t l = i % (N0 * N1), l0 = l / N1, l1 = l % N1;
    return 3 * static_cast<int>(l0 * 100 + l1) + static_cast<int>((l0 % L0) * L1 + l1 % L1) * 100000;
  });
  sycl::free(grid, q);
  sycl::free(scale, q);
}

}  // namespace

int main() {
  sycl::queue q;
  hierarchical2d(q);
  hierarchicalDefaults(q);
  asyncCopyNdRange<int>(q, "int");
  asyncCopyNdRange<double>(q, "double");
  asyncCopyNdRange<sycl::vec<long, 16>>(q, "long16 (128-byte alignment)");
  asyncCopyHierarchical(q);
  privateMemory(q);
  workGroupScope(q);
  {
    // The deprecated accessor of target::local is a local_accessor.
    int *out = sycl::malloc_shared<int>(16, q);
    q.submit([&](sycl::handler &h) {
       sycl::accessor<int, 1, sycl::access_mode::read_write, sycl::target::local> scratch(sycl::range<1>(8), h);
       h.parallel_for(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) {
         scratch[it.get_local_id(0)] = static_cast<int>(it.get_global_id(0));
         sycl::group_barrier(it.get_group());
         out[it.get_global_id(0)] = scratch[7 - it.get_local_id(0)];
       });
     }).wait();
    checkArray("accessor<..., target::local> as local memory", 16, out,
               [](std::size_t i) { return static_cast<int>(i / 8 * 8 + 7 - i % 8); });
    sycl::free(out, q);
  }
  check("sycl::is_group_v<group<2>>", sycl::is_group_v<sycl::group<2>>);
  check("sycl::is_group_v<sub_group>", sycl::is_group_v<sycl::sub_group>);
  check("!sycl::is_group_v<nd_item<1>>", !sycl::is_group_v<sycl::nd_item<1>>);
  return onepass_test::report();
}
