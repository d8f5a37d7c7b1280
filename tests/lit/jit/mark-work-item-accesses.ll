; The launcher's plain loads, stores and memory intrinsics get the module's
; work-item access group (the one its loops' llvm.loop.parallel_accesses
; names), so that the vectorizer needs no dependence checks; atomics and
; volatile accesses do not. A launcher with an alloca left (a work-item's own
; memory, shared by every iteration) gets none at all.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes=onepass-mark-work-item-accesses %t.bc | FileCheck %s
; RUN: %jit-opt -passes="onepass-mark-work-item-accesses<launcher=with_alloca>" %t.bc | FileCheck %s --check-prefix=ALLOCA

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @__onepass_cpu_launch(ptr %in, ptr %out, ptr %counter, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %src, align 4
  %dst = getelementptr float, ptr %out, i64 %i
  store float %v, ptr %dst, align 4
  %old = atomicrmw add ptr %counter, i32 1 monotonic, align 4
  %seen = load volatile i32, ptr %counter, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 4, i1 false)
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !1

exit:
  ret void
}
; CHECK-LABEL: define void @__onepass_cpu_launch(
; CHECK: %v = load float, ptr %src, align 4, !llvm.access.group [[GROUP:![0-9]+]]
; CHECK-NEXT: %dst = getelementptr
; CHECK-NEXT: store float %v, ptr %dst, align 4, !llvm.access.group [[GROUP]]
; CHECK-NEXT: %old = atomicrmw add ptr %counter, i32 1 monotonic, align 4{{$}}
; CHECK-NEXT: %seen = load volatile i32, ptr %counter, align 4{{$}}
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 4, i1 false), !llvm.access.group [[GROUP]]
; Only the launcher.
; CHECK-LABEL: define void @with_alloca(
; CHECK-NOT: !llvm.access.group
; CHECK: ret void
; The group is the module's, which the loops' metadata names too.
; CHECK: !onepass.work_item_accesses = !{[[GROUP]]}
; CHECK: [[GROUP]] = distinct !{}

define void @with_alloca(ptr %out, i64 %n) {
entry:
  %own = alloca i64, align 8
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  store i64 %i, ptr %own, align 8
  %v = load i64, ptr %own, align 8
  %dst = getelementptr i64, ptr %out, i64 %i
  store i64 %v, ptr %dst, align 8
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !1

exit:
  ret void
}
; ALLOCA-NOT: !llvm.access.group

!onepass.work_item_accesses = !{!0}
!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
