// The device-code rules apply only to what kernels reach: the same
// constructs in host code, in the same translation unit as a kernel,
// compile as usual and stay out of the image.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty \
// RUN:   --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %onepass-kernels --dump-bitcode 0:0 -o %t.bc %t.o
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=IR \
// RUN:   --implicit-check-not=hostWork --implicit-check-not=Shape \
// RUN:   --implicit-check-not=elsewhere --implicit-check-not=__cxa
// deviceWork(x) is x * 2, inlined into the kernel.
// IR: define void @{{.*}}__onepass_kernel_
// IR: shl nsw i32 %1, 1

#include <sycl/sycl.hpp>

#include <stdexcept>
#include <typeinfo>

struct Shape {
  virtual ~Shape() = default;
  virtual int sides() const { return 0; }
};
struct Triangle : Shape {
  int sides() const override { return 3; }
};

int elsewhere(int x);  // defined in another file

int deviceWork(int x) { return x * 2; }

int hostWork(const Shape &shape, int x) {
  if (x < 0) throw std::invalid_argument("negative");
  int result = 0;
  try {
    result = shape.sides() + elsewhere(x);
  } catch (const std::exception &) {
    result = -1;
  }
  if (dynamic_cast<const Triangle *>(&shape)) ++result;
  if (typeid(shape) == typeid(Triangle)) ++result;
  int *scratch = new int[4];
  delete[] scratch;
  auto byReference = [&] { return result + x; };
  return byReference() + deviceWork(x);
}

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  q.single_task([=] { out[0] = deviceWork(n); });
  Triangle triangle;
  return hostWork(triangle, n);
}
