// Compile-time benchmark input (compile_time.sh): a template-heavy SYCL
// program of the kind that dominates real build times. Its 42 kernels are
// instantiated from a few templates over element types and a dozen functors:
// element-wise transforms, expression templates, compile-time unrolled 2-D
// stencils, block reductions and scans. The host side checks
// every kernel against the same functor run on the host, with the standard
// containers and algorithms (map, unordered_map, function, sort, streams).
//
// It is a complete program (`onepass++ -fsycl-sscp -O2 template_heavy.cpp`
// builds it; an optional argument selects the cases whose name contains it),
// but the benchmark only compiles it.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bench {

// --- type lists ---------------------------------------------------------------
template <typename T> struct type_tag { using type = T; };
template <typename... Ts> struct type_list {};

template <typename... Ts, typename F> void for_each_type(type_list<Ts...>, F &&f) { (f(type_tag<Ts>{}), ...); }

using element_types = type_list<float, std::int32_t>;
using stencil_types = type_list<double, std::int64_t>;

template <typename T> std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else {
    std::ostringstream name;
    name << (std::is_signed_v<T> ? "int" : "uint") << 8 * sizeof(T);
    return name.str();
  }
}

// Small inputs, so that no integer operation below overflows.
template <typename T> T input_value(std::size_t i, int seed) {
  int v = static_cast<int>((i * 7 + static_cast<std::size_t>(seed) * 13) % 9);
  if constexpr (std::is_signed_v<T>) v -= 4;
  return static_cast<T>(v);
}

// --- functors: one definition, used by the kernels and the host reference ----
struct add {
  static std::string name() { return "add"; }
  template <typename T> T operator()(T a, T b) const { return T(a + b); }
};
struct subtract {
  static std::string name() { return "subtract"; }
  template <typename T> T operator()(T a, T b) const { return T(a - b); }
};
struct multiply {
  static std::string name() { return "multiply"; }
  template <typename T> T operator()(T a, T b) const { return T(a * b); }
};
struct minimum {
  static std::string name() { return "min"; }
  template <typename T> T operator()(T a, T b) const { return std::min(a, b); }
};
struct maximum {
  static std::string name() { return "max"; }
  template <typename T> T operator()(T a, T b) const { return std::max(a, b); }
};
struct average {
  static std::string name() { return "average"; }
  template <typename T> T operator()(T a, T b) const { return T((a + b) / 2); }
};
// Functors with state: the state travels in the kernel object.
template <typename T> struct scaled_add {
  T scale;
  static std::string name() { return "scaled_add"; }
  T operator()(T a, T b) const { return T(scale * a + b); }
};
template <typename T> struct clamped_sum {
  T low, high;
  static std::string name() { return "clamped_sum"; }
  T operator()(T a, T b) const {
    T sum = T(a + b);
    return sum < low ? low : (high < sum ? high : sum);
  }
};

struct square {
  static std::string name() { return "square"; }
  template <typename T> T operator()(T x) const { return T(x * x); }
};
struct absolute_value {
  static std::string name() { return "abs"; }
  template <typename T> T operator()(T x) const { return x < T(0) ? T(T(0) - x) : x; }
};
// 1 + 2x + 3x^2 + ... + (Degree+1)x^Degree by Horner's rule, unrolled at compile time.
template <int Degree> struct polynomial {
  static std::string name() { return "poly" + std::to_string(Degree); }
  template <typename T> T operator()(T x) const { return horner<T, 0>(x); }
  template <typename T, int K> static T horner(T x) {
    if constexpr (K == Degree) return T(Degree + 1);
    else return T(T(K + 1) + x * horner<T, K + 1>(x));
  }
};

// --- expression templates -------------------------------------------------------
namespace et {

template <typename Derived> struct expression {
  const Derived &self() const { return static_cast<const Derived &>(*this); }
};

template <typename T> struct view : expression<view<T>> {
  const T *data;
  T operator[](std::size_t i) const { return data[i]; }
};
template <typename T> struct constant : expression<constant<T>> {
  T value;
  T operator[](std::size_t) const { return value; }
};
template <typename Op, typename L, typename R> struct binary : expression<binary<Op, L, R>> {
  L left;
  R right;
  auto operator[](std::size_t i) const { return Op{}(left[i], right[i]); }
};
template <typename Op, typename A> struct unary : expression<unary<Op, A>> {
  A argument;
  auto operator[](std::size_t i) const { return Op{}(argument[i]); }
};

template <typename T> view<T> wrap(const T *data) { return view<T>{{}, data}; }
template <typename T> constant<T> scalar(T value) { return constant<T>{{}, value}; }

template <typename Op, typename L, typename R>
binary<Op, L, R> make_binary(const expression<L> &l, const expression<R> &r) {
  return binary<Op, L, R>{{}, l.self(), r.self()};
}
template <typename L, typename R> auto operator+(const expression<L> &l, const expression<R> &r) {
  return make_binary<add>(l, r);
}
template <typename L, typename R> auto operator-(const expression<L> &l, const expression<R> &r) {
  return make_binary<subtract>(l, r);
}
template <typename L, typename R> auto operator*(const expression<L> &l, const expression<R> &r) {
  return make_binary<multiply>(l, r);
}
template <typename L, typename R> auto min(const expression<L> &l, const expression<R> &r) {
  return make_binary<minimum>(l, r);
}
template <typename L, typename R> auto max(const expression<L> &l, const expression<R> &r) {
  return make_binary<maximum>(l, r);
}
template <typename Op, typename A> unary<Op, A> apply(const expression<A> &a) { return unary<Op, A>{{}, a.self()}; }

}  // namespace et

// --- kernels --------------------------------------------------------------------
template <typename T, typename Op>
sycl::event transform(sycl::queue &q, const T *a, const T *b, T *out, std::size_t n, Op op) {
  return q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = op(a[i], b[i]); });
}

template <typename T, typename Op> sycl::event transform(sycl::queue &q, const T *a, T *out, std::size_t n, Op op) {
  return q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = op(a[i]); });
}

template <typename T, typename E>
sycl::event evaluate(sycl::queue &q, T *out, const et::expression<E> &e, std::size_t n) {
  E expression = e.self();
  return q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = T(expression[i]); });
}

template <typename T, int Radius, int... K>
T cross_sum(const T *in, std::size_t row, std::size_t col, std::size_t cols, std::integer_sequence<int, K...>) {
  return T((in[(row + K - Radius) * cols + col] + ...) + (in[row * cols + col + K - Radius] + ...));
}

// A cross-shaped stencil of the given radius, unrolled at compile time.
template <typename T, int Radius>
sycl::event stencil(sycl::queue &q, const T *in, T *out, std::size_t rows, std::size_t cols) {
  return q.parallel_for(sycl::range<2>(rows, cols), [=](sycl::item<2> it) {
    std::size_t row = it[0], col = it[1];
    if (row < Radius || col < Radius || row + Radius >= rows || col + Radius >= cols) {
      out[row * cols + col] = in[row * cols + col];
      return;
    }
    out[row * cols + col] = cross_sum<T, Radius>(in, row, col, cols, std::make_integer_sequence<int, 2 * Radius + 1>{});
  });
}

template <typename T, typename Op>
sycl::event block_reduce(sycl::queue &q, const T *in, T *partial, std::size_t n, std::size_t block, Op op) {
  std::size_t blocks = (n + block - 1) / block;
  return q.parallel_for(sycl::range<1>(blocks), [=](sycl::id<1> b) {
    std::size_t first = b[0] * block, last = std::min(n, first + block);
    T acc = in[first];
    for (std::size_t k = first + 1; k < last; ++k) acc = op(acc, in[k]);
    partial[b] = acc;
  });
}

template <typename T> sycl::event inclusive_scan(sycl::queue &q, const T *in, T *out, std::size_t n) {
  return q.single_task([=] {
    T acc = T(0);
    for (std::size_t k = 0; k < n; ++k) out[k] = acc = T(acc + in[k]);
  });
}

// --- host harness ---------------------------------------------------------------
template <typename T> class usm_array {
public:
  usm_array(sycl::queue &q, std::size_t size) : queue_(q), data_(sycl::malloc_shared<T>(size, q)), size_(size) {}
  ~usm_array() { sycl::free(data_, queue_); }
  usm_array(const usm_array &) = delete;
  usm_array &operator=(const usm_array &) = delete;

  T *data() const { return data_; }
  std::size_t size() const { return size_; }
  T &operator[](std::size_t i) const { return data_[i]; }
  std::vector<T> to_vector() const { return std::vector<T>(data_, data_ + size_); }

private:
  sycl::queue &queue_;
  T *data_;
  std::size_t size_;
};

template <typename T> bool same_value(T expected, T actual) {
  if constexpr (std::is_floating_point_v<T>) {
    T scale = std::max(T(1), expected < T(0) ? -expected : expected);
    T difference = expected - actual;
    return (difference < T(0) ? -difference : difference) <= scale * T(1e-5);
  } else {
    return expected == actual;
  }
}

template <typename T> std::size_t count_mismatches(const std::vector<T> &expected, const std::vector<T> &actual) {
  return std::inner_product(expected.begin(), expected.end(), actual.begin(), std::size_t(0), std::plus<>(),
                            [](T e, T a) { return same_value(e, a) ? std::size_t(0) : std::size_t(1); });
}

struct case_result {
  std::size_t checked = 0;
  std::size_t mismatches = 0;
};

using case_function = std::function<case_result(sycl::queue &)>;

class case_registry {
public:
  void add(const std::string &category, const std::string &name, case_function run) {
    cases_.emplace(category + "/" + name, std::move(run));
    categories_[category] += 1;
  }
  const std::map<std::string, case_function> &cases() const { return cases_; }
  const std::unordered_map<std::string, std::size_t> &categories() const { return categories_; }

private:
  std::map<std::string, case_function> cases_;
  std::unordered_map<std::string, std::size_t> categories_;
};

constexpr std::size_t kElements = 4096;

template <typename T> void fill_inputs(usm_array<T> &a, int seed) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = input_value<T>(i, seed);
}

template <typename T, typename Op> void register_binary(case_registry &registry, Op op) {
  registry.add("transform", Op::name() + "<" + type_name<T>() + ">", [op](sycl::queue &q) {
    usm_array<T> a(q, kElements), b(q, kElements), out(q, kElements);
    fill_inputs(a, 1);
    fill_inputs(b, 2);
    transform(q, a.data(), b.data(), out.data(), kElements, op).wait();
    std::vector<T> expected(kElements);
    std::transform(a.data(), a.data() + kElements, b.data(), expected.begin(), op);
    return case_result{kElements, count_mismatches(expected, out.to_vector())};
  });
}

template <typename T, typename Op> void register_unary(case_registry &registry, Op op) {
  registry.add("transform", Op::name() + "<" + type_name<T>() + ">", [op](sycl::queue &q) {
    usm_array<T> a(q, kElements), out(q, kElements);
    fill_inputs(a, 3);
    transform(q, a.data(), out.data(), kElements, op).wait();
    std::vector<T> expected(kElements);
    std::transform(a.data(), a.data() + kElements, expected.begin(), [op](T x) { return op(x); });
    return case_result{kElements, count_mismatches(expected, out.to_vector())};
  });
}

template <typename T, typename MakeExpression>
void register_expression(case_registry &registry, const std::string &name, MakeExpression make) {
  registry.add("expression", name + "<" + type_name<T>() + ">", [make](sycl::queue &q) {
    usm_array<T> x(q, kElements), y(q, kElements), out(q, kElements);
    fill_inputs(x, 4);
    fill_inputs(y, 5);
    auto expression = make(et::wrap<T>(x.data()), et::wrap<T>(y.data()));
    evaluate(q, out.data(), expression, kElements).wait();
    std::vector<T> expected(kElements);
    for (std::size_t i = 0; i < kElements; ++i) expected[i] = T(expression[i]);
    return case_result{kElements, count_mismatches(expected, out.to_vector())};
  });
}

template <typename T> void register_expressions(case_registry &registry) {
  using namespace et;
  register_expression<T>(registry, "axpy", [](auto x, auto y) { return scalar<T>(3) * x + y; });
  register_expression<T>(registry, "difference_of_squares", [](auto x, auto y) { return (x + y) * (x - y); });
  register_expression<T>(registry, "clamp_cube",
                         [](auto x, auto) { return min(max(x, scalar<T>(T(1))), scalar<T>(T(3))) + x * x * x; });
  register_expression<T>(registry, "polynomials", [](auto x, auto y) {
    return apply<polynomial<3>>(x) - apply<square>(y) + apply<polynomial<2>>(x * y);
  });
  register_expression<T>(registry, "nested", [](auto x, auto y) {
    auto c = scalar<T>(T(2));
    return ((x + y) * (x + c) - (y * y + c)) * c + apply<absolute_value>(x - y * c);
  });
}

template <typename T, int Radius> void register_stencil(case_registry &registry) {
  registry.add("stencil", "radius" + std::to_string(Radius) + "<" + type_name<T>() + ">", [](sycl::queue &q) {
    constexpr std::size_t rows = 48, cols = 64;
    usm_array<T> in(q, rows * cols), out(q, rows * cols);
    fill_inputs(in, 6);
    stencil<T, Radius>(q, in.data(), out.data(), rows, cols).wait();
    std::vector<T> expected = in.to_vector();
    for (std::size_t r = Radius; r + Radius < rows; ++r)
      for (std::size_t c = Radius; c + Radius < cols; ++c)
        expected[r * cols + c] =
            cross_sum<T, Radius>(in.data(), r, c, cols, std::make_integer_sequence<int, 2 * Radius + 1>{});
    return case_result{rows * cols, count_mismatches(expected, out.to_vector())};
  });
}

template <typename T, typename Op> void register_reduction(case_registry &registry, Op op) {
  registry.add("reduce", Op::name() + "<" + type_name<T>() + ">", [op](sycl::queue &q) {
    constexpr std::size_t block = 100;
    constexpr std::size_t blocks = (kElements + block - 1) / block;
    usm_array<T> in(q, kElements), partial(q, blocks);
    fill_inputs(in, 7);
    block_reduce(q, in.data(), partial.data(), kElements, block, op).wait();
    std::vector<T> expected(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
      std::size_t first = b * block, last = std::min(kElements, first + block);
      expected[b] = std::accumulate(in.data() + first + 1, in.data() + last, in[first], op);
    }
    return case_result{blocks, count_mismatches(expected, partial.to_vector())};
  });
}

template <typename T> void register_scan(case_registry &registry) {
  registry.add("scan", "inclusive<" + type_name<T>() + ">", [](sycl::queue &q) {
    constexpr std::size_t n = 1000;
    usm_array<T> in(q, n), out(q, n);
    fill_inputs(in, 8);
    inclusive_scan(q, in.data(), out.data(), n).wait();
    std::vector<T> expected(n);
    std::partial_sum(in.data(), in.data() + n, expected.begin(), [](T a, T b) { return T(a + b); });
    return case_result{n, count_mismatches(expected, out.to_vector())};
  });
}

template <typename T, int... Radius>
void register_stencils(case_registry &registry, std::integer_sequence<int, Radius...>) {
  (register_stencil<T, Radius + 1>(registry), ...);
}

case_registry build_registry() {
  case_registry registry;
  for_each_type(element_types{}, [&](auto tag) {
    using T = typename decltype(tag)::type;
    register_binary<T>(registry, add{});
    register_binary<T>(registry, multiply{});
    register_binary<T>(registry, maximum{});
    register_binary<T>(registry, average{});
    register_binary<T>(registry, scaled_add<T>{T(3)});
    register_binary<T>(registry, clamped_sum<T>{T(1), T(6)});
    register_unary<T>(registry, square{});
    register_unary<T>(registry, absolute_value{});
    register_unary<T>(registry, polynomial<3>{});
    register_unary<T>(registry, polynomial<5>{});
    register_expressions<T>(registry);
    register_reduction<T>(registry, add{});
    register_reduction<T>(registry, maximum{});
    register_scan<T>(registry);
  });
  for_each_type(stencil_types{}, [&](auto tag) {
    using T = typename decltype(tag)::type;
    register_stencils<T>(registry, std::make_integer_sequence<int, 3>{});
  });
  return registry;
}

}  // namespace bench

int main(int argc, char **argv) {
  const std::string filter = argc > 1 ? argv[1] : "";
  bench::case_registry registry = bench::build_registry();
  sycl::queue q;

  std::vector<std::pair<std::string, bench::case_result>> failures;
  std::size_t run = 0, checked = 0;
  for (const auto &[name, function] : registry.cases()) {
    if (name.find(filter) == std::string::npos) continue;
    bench::case_result result = function(q);
    ++run;
    checked += result.checked;
    if (result.mismatches > 0) failures.emplace_back(name, result);
  }

  std::vector<std::pair<std::string, std::size_t>> categories(registry.categories().begin(),
                                                              registry.categories().end());
  std::sort(categories.begin(), categories.end());
  std::ostringstream summary;
  for (const auto &[category, count] : categories) summary << " " << category << "=" << count;
  std::printf("%zu cases registered:%s\n", registry.cases().size(), summary.str().c_str());
  for (const auto &[name, result] : failures)
    std::printf("FAILED %s: %zu of %zu values differ\n", name.c_str(), result.mismatches, result.checked);
  std::printf("%zu cases run, %zu values checked: %s\n", run, checked, failures.empty() ? "PASSED" : "FAILED");
  return failures.empty() ? 0 : 1;
}
