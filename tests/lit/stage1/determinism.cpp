// The image is a pure function of the source and the compile options: the
// same compile twice, into objects of different names and directories,
// gives byte-identical images with the same content-derived id (the JIT's
// cache key). Debug info is stripped from the device module, so -g does not
// change the image either.
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: %onepass -fsycl-sscp -c %s -o %t/a/first.o
// RUN: %onepass -fsycl-sscp -c %s -o %t/b/second.o
// RUN: %onepass -fsycl-sscp -g -c %s -o %t/b/debug.o
// RUN: %onepass-kernels %t/a/first.o > %t/first.txt
// RUN: %onepass-kernels %t/b/second.o > %t/second.txt
// RUN: %onepass-kernels %t/b/debug.o > %t/debug.txt
// RUN: diff %t/first.txt %t/second.txt
// RUN: diff %t/first.txt %t/debug.txt
// RUN: llvm-objcopy --dump-section=.onepass.images=%t/first.bin %t/a/first.o
// RUN: llvm-objcopy --dump-section=.onepass.images=%t/second.bin %t/b/second.o
// RUN: cmp %t/first.bin %t/second.bin
// And the listing is not empty: it is worth comparing.
// RUN: FileCheck %s < %t/first.txt
// CHECK: image 0: id {{[0-9a-f]+}}, 2 kernels
// CHECK: kernel 0: lambda at
// CHECK: kernel 1: Named

#include <sycl/sycl.hpp>

class Named;

int main() {
  sycl::queue q;
  float *data = nullptr;
  float scale = 3.0f;
  q.parallel_for(sycl::range<1>(16), [=](sycl::item<1> it) { data[it[0]] *= scale; });
  q.single_task<Named>([=] { data[0] = scale; });
  return 0;
}
