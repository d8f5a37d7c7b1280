// A binary whose embedded kernel image is damaged reports it as a
// sycl::exception naming the problem, at the launch of an affected kernel;
// it never crashes or runs garbage.
// RUN: %onepass -fsycl-sscp -O1 %s -o %t
// RUN: %t | FileCheck %s --check-prefix=INTACT
// RUN: %python %S/Inputs/corrupt_image.py %t %t.magic magic
// RUN: chmod +x %t.magic
// RUN: %t.magic 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: %python %S/Inputs/corrupt_image.py %t %t.bitcode bitcode
// RUN: chmod +x %t.bitcode
// RUN: %t.bitcode 2>&1 | FileCheck %s --check-prefix=BITCODE
#include <sycl/sycl.hpp>

#include <cstdio>

int main() {
  sycl::queue q;
  int *value = sycl::malloc_shared<int>(1, q);
  *value = 0;
  try {
    q.single_task([=] { *value = 7; }).wait();
    std::printf("ran: value=%d\n", *value);
  } catch (const sycl::exception &e) {
    std::printf("caught [%s] %s\n", e.code().message().c_str(), e.what());
  }
  sycl::free(value, q);
}

// INTACT: ran: value=7

// The image registers as corrupt; its kernels are then unsupported.
// MAGIC: caught [kernel not supported on this device] the kernel image embedded in {{.*}}corrupt-image.cpp.tmp.magic is corrupt: kernel image has a bad magic number

// The JIT verifies the content hash before trusting the bitcode.
// BITCODE: caught [kernel build error] cannot build kernel 'lambda at {{.*}}corrupt-image.cpp:{{[0-9]+}}:{{[0-9]+}}'{{.*}}: kernel image content hash does not match (the image is corrupt)
