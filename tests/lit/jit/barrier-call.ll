; A barrier in a function the kernel calls, under a branch that is uniform
; per group: the function is inlined so that the barrier is the kernel's own,
; and both of its barriers become resume points (1 and 2).
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=kernel>" %t.bc | FileCheck %s

declare void @__onepass_group_barrier()

define internal i32 @exchange(ptr %local, i64 %lid, i32 %v) noinline {
  %slot = getelementptr i32, ptr %local, i64 %lid
  store i32 %v, ptr %slot
  call void @__onepass_group_barrier()
  %r = load i32, ptr %local
  call void @__onepass_group_barrier()
  ret i32 %r
}

define void @kernel(ptr %local, ptr %out, i64 %lid, i1 %uniform) {
entry:
  br i1 %uniform, label %then, label %join

then:
  %x = call i32 @exchange(ptr %local, i64 %lid, i32 7)
  br label %join

join:
  %y = phi i32 [ %x, %then ], [ 0, %entry ]
  store i32 %y, ptr %out
  ret void
}

; CHECK: ; frame: {{[0-9]+}} bytes, align {{[0-9]+}}, 2 barrier(s)
; CHECK: switch i32 %{{.*}}, label %{{.*}} [
; CHECK-NEXT: i32 1, label %{{.*}}
; CHECK-NEXT: i32 2, label %{{.*}}
; CHECK-NOT: call i32 @exchange
; CHECK-NOT: call void @__onepass_group_barrier
; CHECK: store i32 1, ptr %next
; CHECK: store i32 2, ptr %next
