; One barrier in straight-line code: the value computed before it lives in
; the work-item's frame; the step stops at the barrier with next = 1 and
; continues after it when called from 1; it ends with next = -1.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=kernel>" %t.bc | FileCheck %s

declare void @__onepass_group_barrier()

define void @kernel(ptr %in, ptr %out, i64 %i) {
entry:
  %p = getelementptr i32, ptr %in, i64 %i
  %v = load i32, ptr %p
  %twice = add i32 %v, %v
  call void @__onepass_group_barrier()
  %q = getelementptr i32, ptr %out, i64 %i
  store i32 %twice, ptr %q
  ret void
}

; CHECK: ; frame: {{[1-9][0-9]*}} bytes, align {{[0-9]+}}, 1 barrier(s)
; CHECK-LABEL: define internal void @kernel.step(ptr %in, ptr %out, i64 %i, ptr %group, ptr %frames, i64 %item, i64 %items, i32 %from, ptr %next, i1 %together)
; The value's column: the work-item's slot at item * 4 (the only column).
; CHECK: [[OFFSET:%.*]] = mul nuw i64 %item, 4
; CHECK: [[FRAME:%.*]] = getelementptr inbounds i8, ptr %frames, i64 [[OFFSET]]
; The entry dispatches on where the work-item resumes.
; CHECK: switch i32 %from, label %[[START:.*]] [
; CHECK-NEXT: i32 1, label %[[AFTER:.*]]
; CHECK-NEXT: ]
; Before the barrier: the value goes to the frame, and the step stops.
; CHECK: [[START]]:
; CHECK: store i32 %twice, ptr [[FRAME]]
; CHECK: store i32 1, ptr %next
; CHECK-NEXT: ret void
; After it: the value comes back from the frame; the work-item is done.
; CHECK: [[AFTER]]:
; CHECK: [[RELOAD:%.*]] = load i32, ptr [[FRAME]]
; CHECK: store i32 [[RELOAD]], ptr %q
; CHECK: store i32 -1, ptr %next
; CHECK-NEXT: ret void
; CHECK-NOT: call void @__onepass_group_barrier
