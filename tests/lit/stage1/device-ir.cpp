// The image's bitcode holds only what the kernels reach, target-neutral: no
// target triple, none of the host's function attributes (at -O0 clang marks
// every function optnone and noinline; the JIT optimizes anyway), no static
// constructors, no debug info, no helper left out of line. The same holds at
// every optimization level.
// DEFINE: %{check} = FileCheck %s --implicit-check-not=target-cpu \
// DEFINE:   --implicit-check-not=target-features --implicit-check-not=tune-cpu \
// DEFINE:   --implicit-check-not=frame-pointer --implicit-check-not=stack-protector \
// DEFINE:   --implicit-check-not=min-legal-vector-width --implicit-check-not=uwtable \
// DEFINE:   --implicit-check-not=optnone --implicit-check-not=noinline \
// DEFINE:   --implicit-check-not=personality \
// DEFINE:   --implicit-check-not=llvm.global_ctors --implicit-check-not=llvm.global_dtors \
// DEFINE:   --implicit-check-not=llvm.global.annotations --implicit-check-not=llvm.used \
// DEFINE:   --implicit-check-not="target triple" --implicit-check-not=!llvm.dbg.cu \
// DEFINE:   --implicit-check-not=!DI --implicit-check-not=!dbg \
// DEFINE:   --implicit-check-not=!llvm.module.flags --implicit-check-not=!llvm.ident \
// DEFINE:   --implicit-check-not=host_only --implicit-check-not=unused_helper \
// DEFINE:   --implicit-check-not=@main --implicit-check-not=host_kernel_called \
// DEFINE:   --implicit-check-not="define internal" --implicit-check-not=alwaysinline \
// DEFINE:   --implicit-check-not=register_image --implicit-check-not=onepass.layout

// RUN: %onepass -fsycl-sscp -O0 -c %s -o %t.O0.o
// RUN: %onepass-kernels --dump-bitcode AddOne -o %t.O0.bc %t.O0.o
// RUN: llvm-dis %t.O0.bc -o - | %{check}
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.O2.o
// RUN: %onepass-kernels --dump-bitcode AddOne -o %t.O2.bc %t.O2.o
// RUN: llvm-dis %t.O2.bc -o - | %{check}
// RUN: %onepass -fsycl-sscp -O3 -c %s -o %t.O3.o
// RUN: %onepass-kernels --dump-bitcode AddOne -o %t.O3.bc %t.O3.o
// RUN: llvm-dis %t.O3.bc -o - | %{check}
// RUN: %onepass -fsycl-sscp -g -O0 -c %s -o %t.g.o
// RUN: %onepass-kernels --dump-bitcode AddOne -o %t.g.bc %t.g.o
// RUN: llvm-dis %t.g.bc -o - | %{check}

// The host module of the same compile has all of them: the checks above
// would see them if they leaked into the image.
// RUN: %onepass -fsycl-sscp -O0 -g -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HOST
// HOST-DAG: define {{.*}}i32 @_Z9host_onlyi(i32 noundef %0) #[[HOST_ATTRS:[0-9]+]]
// HOST-DAG: define {{.*}}i32 @_Z13unused_helperi(
// HOST-DAG: define {{.*}}i32 @main()
// HOST-DAG: @llvm.global_ctors =
// HOST-DAG: target triple = "{{.+}}"
// HOST-DAG: attributes #[[HOST_ATTRS]] = { {{.*}}noinline {{.*}}optnone uwtable "frame-pointer"={{.*}}"target-cpu"={{.*}}"target-features"=
// HOST-DAG: !llvm.dbg.cu =

#include <sycl/sycl.hpp>

// Host code only: called from main, never from a kernel.
int host_only(int x) { return x * 7; }
// Defined, but nobody calls it.
int unused_helper(int x) { return x - 5; }
// Reached from both kernels.
int device_helper(int x) { return x + 1; }

class AddOne;
class Scale;

// CHECK:      source_filename =
// CHECK-NEXT: target datalayout =

// Stage 1 simplifies the image target-neutrally: what the kernels reach is
// inlined into them, so the kernel functions are its only definitions. They
// take the flattened kernel object.
// CHECK-DAG:  define void @{{"?}}__onepass_kernel__ZN4sycl6detail24kernel_entry_single_taskI6AddOne{{[^(]*}}(ptr {{[^%]*}}%0, i32 %1) {{.*}}#[[ADD_ATTRS:[0-9]+]]
// CHECK-DAG:  define void @{{"?}}__onepass_kernel__ZN4sycl6detail25kernel_entry_parallel_forI5Scale{{[^(]*}}(ptr {{[^%]*}}%0, float %1) {{.*}}#[[SCALE_ATTRS:[0-9]+]]
// device_helper(n) is n + 1 in both.
// CHECK-DAG:  add nsw i32 %1, 1
// The work-item builtins stay declarations for the JIT to provide.
// CHECK-DAG:  declare {{.*}}i64 @__onepass_get_global_id(i32 noundef)

// The kernel functions carry the user's floating-point environment (here
// clang's default: no trapping math) for the JIT to honour.
// CHECK-DAG:  attributes #[[ADD_ATTRS]] = { {{.*}}"no-trapping-math"="true" }
// CHECK-DAG:  attributes #[[SCALE_ATTRS]] = { {{.*}}"no-trapping-math"="true" }

int main() {
  sycl::queue q;
  int *ints = nullptr;
  float *floats = nullptr;
  int n = host_only(3);
  float factor = 2.0f;
  q.single_task<AddOne>([=] { ints[0] = device_helper(n); });
  q.parallel_for<Scale>(sycl::range<1>(8), [=](sycl::item<1> it) {
    floats[it[0]] = factor * device_helper(int(it[0]));
  });
  return 0;
}
