// Stage 1 runs in the host compile: the object keeps all of the host code,
// carries the kernel image in a .onepass.images section, and registers it
// with the runtime from a static constructor (and unregisters it from a
// static destructor). The host body of each kernel entry only reports misuse.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o
// RUN: llvm-objdump -h %t.o | FileCheck %s --check-prefix=SECTIONS
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYMBOLS --implicit-check-not=__onepass_kernel__
// RUN: llvm-objdump -d -r --no-show-raw-insn %t.o | FileCheck %s --check-prefix=CODE
// One .init_array entry is the registration function: capture its address
// from the symbol table, then find it among the .init_array relocations (the
// others are the TU's static initializers, which register kernel names).
// RUN: llvm-nm %t.o > %t.syms
// RUN: llvm-readelf -r %t.o >> %t.syms
// RUN: FileCheck %s --check-prefix=CTOR < %t.syms

// SECTIONS: .onepass.images
// SECTIONS: .init_array
// SECTIONS: .fini_array

// SYMBOLS-DAG: {{^}}                 U __onepass_register_image{{$}}
// SYMBOLS-DAG: {{^}}                 U __onepass_unregister_image{{$}}
// SYMBOLS-DAG: {{^}}                 U __onepass_host_kernel_called{{$}}
// SYMBOLS-DAG: {{^}}{{[0-9a-f]+}} t __onepass_register_kernels{{$}}
// SYMBOLS-DAG: {{^}}{{[0-9a-f]+}} t __onepass_unregister_kernels{{$}}
// SYMBOLS-DAG: {{^}}{{[0-9a-f]+}} r __onepass_kernel_image{{$}}
// The host code is all there.
// SYMBOLS-DAG: {{^}}{{[0-9a-f]+}} T main{{$}}
// SYMBOLS-DAG: {{^}}{{[0-9a-f]+}} T _Z9host_onlyi{{$}}
// SYMBOLS-DAG: {{^}}{{[0-9a-f]+}} T _Z13device_helperi{{$}}
// SYMBOLS-DAG: {{^}}{{[0-9a-f]+}} t _ZN4sycl6detail24kernel_entry_single_taskI6AddOne{{.*}}
// (The image's kernel functions, __onepass_kernel__*, are not host symbols.)

// The registration passes the image and calls the runtime; so does the
// unregistration.
// CODE-LABEL: <__onepass_register_kernels>:
// CODE:         R_{{[A-Z0-9_]+}} .onepass.images
// CODE:         R_{{[A-Z0-9_]+}} __onepass_register_image
// CODE-LABEL: <__onepass_unregister_kernels>:
// CODE:         R_{{[A-Z0-9_]+}} .onepass.images
// CODE:         R_{{[A-Z0-9_]+}} __onepass_unregister_image

// CTOR:      {{^}}{{0*}}[[CTOR:[1-9a-f][0-9a-f]*]] t __onepass_register_kernels
// CTOR:      {{^}}{{0*}}[[DTOR:[1-9a-f][0-9a-f]*]] t __onepass_unregister_kernels
// CTOR:      Relocation section '.rela.init_array'
// CTOR-NEXT: Offset
// CTOR:      R_{{[A-Z0-9_]+}} {{.*}} .text + [[CTOR]]{{$}}
// CTOR:      Relocation section '.rela.fini_array'
// CTOR-NEXT: Offset
// CTOR-NEXT: R_{{[A-Z0-9_]+}} {{.*}} .text + [[DTOR]]{{$}}

#include <sycl/sycl.hpp>

int host_only(int x) { return x * 7; }
int device_helper(int x) { return x + 1; }

class AddOne;

int main() {
  sycl::queue q;
  int *ints = nullptr;
  int n = host_only(3);
  q.single_task<AddOne>([=] { ints[0] = device_helper(n); });
  return 0;
}
