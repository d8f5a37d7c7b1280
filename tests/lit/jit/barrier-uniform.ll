; Values live across a barrier that are the same for the whole group (a
; loop counter that no work-item id decides) get group copies besides their
; frame column: while the group is together, the step takes the previous
; phase's copy as a parameter (the launcher reads it once per phase) at the
; start of a phase and writes this phase's copy; apart, it uses the
; work-item's own slot. A value that depends on the work-item's id
; (the running sum) has its column only.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=kernel>" %t.bc | FileCheck %s
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=leaving>" %t.bc | FileCheck %s --check-prefix=LEAVING

declare void @__onepass_group_barrier()
declare i64 @__onepass_get_local_id(i32) nounwind willreturn memory(none)

define void @kernel(ptr %local, ptr %out, i64 %rounds) {
entry:
  %lid = call i64 @__onepass_get_local_id(i32 0)
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %next, %loop ]
  %sum = phi i64 [ %lid, %entry ], [ %sum.next, %loop ]
  %slot = getelementptr i64, ptr %local, i64 %lid
  store i64 %sum, ptr %slot
  call void @__onepass_group_barrier()
  %v = load i64, ptr %local
  %sum.next = add i64 %sum, %v
  %next = add i64 %k, 1
  %done = icmp eq i64 %next, %rounds
  br i1 %done, label %exit, label %loop

exit:
  store i64 %sum.next, ptr %out
  ret void
}

; (The counter is demoted twice: its phi, and its reload in the loop header,
; live across the barrier too; both are uniform.)
; CHECK: ; frame: {{[0-9]+}} bytes, align 8, 1 barrier(s), 2 uniform value(s) in 32 group bytes
; Every branch is uniform: from the start and from the barrier, the group
; stops together.
; CHECK-NEXT: ; stops together from: 0 1
; The step takes the uniforms' previous copies after its fixed parameters.
; CHECK: define internal void @kernel.step({{.*}}, i1 %together, i64 %k.reg2mem.uniform, i64 %k.reload.reg2mem.uniform)
; The counter: this phase's copy, and its own slot.
; CHECK-DAG: %k.reg2mem.current = getelementptr inbounds i8, ptr %group, i64 8
; CHECK-DAG: %k.reg2mem.now = select i1 %together, ptr %k.reg2mem.current, ptr %k.reg2mem.frame
; The sum depends on the work-item: no group copy.
; CHECK-NOT: %sum{{.*}}.current
; CHECK: switch i32 %from
; Resumed after the barrier: the counter as the previous phase left it, the
; parameter while together, else the work-item's own.
; CHECK: resume.1:
; CHECK: [[OWN:%.*]] = load i64, ptr %k.reload.reg2mem.frame
; CHECK-NEXT: [[K:%.*]] = select i1 %together, i64 %k.reload.reg2mem.uniform, i64 [[OWN]]
; CHECK-NEXT: %next = add i64 [[K]], 1
; Writes go to this phase's copy.
; CHECK: store i64 %{{.*}}, ptr %k.reg2mem.now

; Work-items leaving on their id before the barrier: from the start, the
; group may stop at different places (the launcher checks); after the
; barrier, only uniform branches remain.
define void @leaving(ptr %local, ptr %out) {
entry:
  %lid = call i64 @__onepass_get_local_id(i32 0)
  %gone = icmp uge i64 %lid, 48
  br i1 %gone, label %exit, label %stay

stay:
  %slot = getelementptr i64, ptr %local, i64 %lid
  store i64 %lid, ptr %slot
  call void @__onepass_group_barrier()
  %v = load i64, ptr %local
  store i64 %v, ptr %out
  br label %exit

exit:
  ret void
}

; LEAVING: ; stops together from: 1{{$}}
