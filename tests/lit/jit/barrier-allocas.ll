; Local variables: one used on both sides of the barrier moves to the
; work-item's frame; one used only before it stays a local of the step (so
; that it can still become registers).
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=kernel>" %t.bc | FileCheck %s

declare void @__onepass_group_barrier()

define void @kernel(ptr %out, i32 %v) {
entry:
  %kept = alloca i32
  %scratch = alloca [4 x i32]
  store i32 %v, ptr %kept
  store i32 %v, ptr %scratch
  %s = load i32, ptr %scratch
  store i32 %s, ptr %out
  call void @__onepass_group_barrier()
  %k = load i32, ptr %kept
  store i32 %k, ptr %out
  ret void
}

; CHECK: ; frame: 4 bytes, align 4, 1 barrier(s)
; CHECK-DAG: %scratch = alloca [4 x i32]
; CHECK-DAG: %kept.frame = getelementptr inbounds i8, ptr %frames, i64 %{{.*}}
; CHECK-NOT: %kept = alloca
