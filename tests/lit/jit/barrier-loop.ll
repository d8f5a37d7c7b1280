; A barrier inside a loop (its trip count the same for the whole group): the
; loop counter and the running sum are phis, and become frame slots; the step
; resumes inside the loop body.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=kernel>" %t.bc | FileCheck %s

declare void @__onepass_group_barrier()

define void @kernel(ptr %local, ptr %out, i64 %lid, i64 %rounds) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %slot = getelementptr i32, ptr %local, i64 %lid
  store i32 %sum, ptr %slot
  call void @__onepass_group_barrier()
  %v = load i32, ptr %local
  %sum.next = add i32 %sum, %v
  %next = add i64 %k, 1
  %done = icmp eq i64 %next, %rounds
  br i1 %done, label %exit, label %loop

exit:
  store i32 %sum.next, ptr %out
  ret void
}

; CHECK: ; frame: {{[0-9]+}} bytes, align {{[0-9]+}}, 1 barrier(s)
; CHECK: switch i32 %{{.*}}, label %{{.*}} [
; CHECK-NEXT: i32 1, label %[[RESUMED:.*]]
; No phi survives: loop-carried values go through the frame.
; CHECK-NOT: phi
; CHECK: store i32 1, ptr %next
; CHECK-NEXT: ret void
; The resumed half of the loop body loops back to its first half.
; CHECK: [[RESUMED]]:
; CHECK: %sum.next = add i32
; CHECK: br i1 %done, label %exit, label %loop
; CHECK: store i32 -1, ptr %next
