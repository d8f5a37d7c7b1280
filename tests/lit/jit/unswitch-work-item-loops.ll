; The launcher's innermost work-item loops (those with parallel-loop
; metadata) split on a branch whose condition is the same for every
; iteration: one copy of the loop per outcome, neither with the branch. A
; condition only part of which is uniform (`row == 0 || i == 0`) splits on
; that part. Loops without the metadata, and functions other than the
; launcher, stay as they are.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes=onepass-unswitch-work-item-loops %t.bc | FileCheck %s
; RUN: %jit-opt -passes="onepass-unswitch-work-item-loops<launcher=other>" %t.bc | FileCheck %s --check-prefix=OTHER
; RUN: %jit-opt -passes="onepass-unswitch-work-item-loops<launcher=plain>" %t.bc | FileCheck %s --check-prefix=PLAIN

define void @__onepass_cpu_launch(ptr %out, i64 %n, i64 %row) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %first = icmp eq i64 %row, 0
  br i1 %first, label %then, label %latch

then:
  %p = getelementptr i64, ptr %out, i64 %i
  store i64 %i, ptr %p
  br label %latch

latch:
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !1

exit:
  ret void
}

; The choice moves before the loop: the loop with `row == 0` keeps the
; store and loses the branch, its copy (.uniform) has neither.
; CHECK-LABEL: define void @__onepass_cpu_launch(
; CHECK-NEXT: entry:
; CHECK-NEXT: %first = icmp eq i64 %row, 0
; CHECK-NEXT: [[CHOICE:%.*]] = freeze i1 %first
; CHECK-NEXT: br i1 [[CHOICE]], label %loop.preheader, label %loop.uniform.preheader
; CHECK: loop.uniform:
; CHECK-NEXT: %i.uniform = phi i64
; CHECK-NEXT: %next.uniform = add nuw i64 %i.uniform, 1
; CHECK-NEXT: %more.uniform = icmp ult i64 %next.uniform, %n
; CHECK-NEXT: br i1 %more.uniform, label %loop.uniform, label %{{.*}}, !llvm.loop [[LOOP:![0-9]+]]
; CHECK: loop:
; CHECK-NEXT: %i = phi i64
; CHECK-NEXT: %p = getelementptr i64, ptr %out, i64 %i
; CHECK-NEXT: store i64 %i, ptr %p
; CHECK-NEXT: %next = add nuw i64 %i, 1
; CHECK-NEXT: %more = icmp ult i64 %next, %n
; CHECK-NEXT: br i1 %more, label %loop, label %{{.*}}, !llvm.loop [[LOOP]]
; Not the launcher: left alone.
; CHECK-LABEL: define void @other(
; CHECK-NEXT: entry:
; CHECK-NEXT: br label %loop
; CHECK: %either = or i1 %first, %edge
; CHECK-NEXT: br i1 %either, label %then, label %latch
; CHECK: [[LOOP]] = distinct !{[[LOOP]], [[PARALLEL:![0-9]+]], [[NOUNROLL:![0-9]+]]}
; CHECK: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
; CHECK: [[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}

; OTHER-LABEL: define void @other(
; OTHER-NEXT: entry:
; OTHER-NEXT: %first = icmp eq i64 %row, 0
; OTHER-NEXT: [[CHOICE:%.*]] = freeze i1 %first
; OTHER-NEXT: br i1 [[CHOICE]], label %loop.preheader, label %loop.uniform.preheader
; With `row != 0`, only the part that varies decides.
; OTHER: loop.uniform:
; OTHER-NEXT: %i.uniform = phi i64
; OTHER-NEXT: %edge.uniform = icmp eq i64 %i.uniform, 0
; OTHER-NEXT: br i1 %edge.uniform, label %then.uniform, label %latch.uniform
; With `row == 0`, every work-item stores: no branch left in the loop.
; OTHER: loop:
; OTHER-NEXT: %i = phi i64
; OTHER-NOT: br i1 %{{(either|edge)}}
; OTHER: store i64 %i, ptr %p
; OTHER-NOT: br i1 %{{(either|edge)}}
; OTHER: br i1 %more, label %loop, label
; OTHER-LABEL: define void @plain(

define void @other(ptr %out, i64 %n, i64 %row) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %first = icmp eq i64 %row, 0
  %edge = icmp eq i64 %i, 0
  %either = or i1 %first, %edge
  br i1 %either, label %then, label %latch

then:
  %p = getelementptr i64, ptr %out, i64 %i
  store i64 %i, ptr %p
  br label %latch

latch:
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !4

exit:
  ret void
}

; A loop without parallel-loop metadata: not a work-item loop.
; PLAIN-LABEL: define void @plain(
; PLAIN-NEXT: entry:
; PLAIN-NEXT: br label %loop
; PLAIN: loop:
; PLAIN-NEXT: %i = phi i64
; PLAIN-NEXT: %first = icmp eq i64 %row, 0
; PLAIN-NEXT: br i1 %first, label %then, label %latch
define void @plain(ptr %out, i64 %n, i64 %row) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %first = icmp eq i64 %row, 0
  br i1 %first, label %then, label %latch

then:
  %p = getelementptr i64, ptr %out, i64 %i
  store i64 %i, ptr %p
  br label %latch

latch:
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

!onepass.work_item_accesses = !{!0}
!0 = distinct !{}
!1 = distinct !{!1, !2, !3}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = !{!"llvm.loop.unroll.disable"}
!4 = distinct !{!4, !2, !3}
