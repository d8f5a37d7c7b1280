; The CPU launcher of a parallel_for over a range: __onepass_cpu_launch(object,
; launch) loads the kernel's parameters from the object once, stores the
; global range into the work-item state (words 3-5; 1 in a dimension the
; kernel lacks, whose id, word 0-2, is 0), and loops over the launch's chunk
; [begin, end) (launch words 0-2 and 3-5): dimension 0 outermost, each loop
; storing its id (words 0-2), the innermost one calling the kernel. Every
; loop is parallel (llvm.loop.parallel_accesses); the innermost one, the
; vectorizer's, is not unrolled. A single task calls the kernel once.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-build-work-item-loops<kernel=kernel;range;dims=2>" %t.bc | FileCheck %s
; RUN: %jit-opt -passes="onepass-build-work-item-loops<kernel=kernel;range;dims=3;offsets=16:0:8>" %t.bc \
; RUN:   | FileCheck %s --check-prefix=OFFSETS
; RUN: %jit-opt -passes="onepass-build-work-item-loops<kernel=kernel;single-task>" %t.bc | FileCheck %s --check-prefix=TASK
; RUN: not %jit-opt -passes="onepass-build-work-item-loops<kernel=missing>" %t.bc 2>&1 | FileCheck %s --check-prefix=MISSING
; RUN: not %jit-opt -passes="onepass-build-work-item-loops<kernel=kernel;dims=4>" %t.bc 2>&1 | FileCheck %s --check-prefix=DIMS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define void @kernel(ptr %out, i32 %scale, i64 %width) {
  ret void
}

; CHECK-LABEL: define void @__onepass_cpu_launch(ptr noalias readonly %0, ptr noalias readonly %1)
; CHECK-NEXT: entry:
; CHECK-NEXT: %wi.state = alloca [20 x i64], align 8
; The parameters, one after the other at their alignment (no offsets given).
; CHECK-NEXT: [[AT0:%.*]] = getelementptr inbounds i8, ptr %0, i32 0
; CHECK-NEXT: [[OUT:%.*]] = load ptr, ptr [[AT0]], align 1
; CHECK-NEXT: [[AT1:%.*]] = getelementptr inbounds i8, ptr %0, i32 8
; CHECK-NEXT: [[SCALE:%.*]] = load i32, ptr [[AT1]], align 1
; CHECK-NEXT: [[AT2:%.*]] = getelementptr inbounds i8, ptr %0, i32 16
; CHECK-NEXT: [[WIDTH:%.*]] = load i64, ptr [[AT2]], align 1
; Dimension 0: its range (launch word 6) to state word 3, begin and end.
; CHECK-NEXT: [[RANGE0AT:%.*]] = getelementptr inbounds i64, ptr %1, i32 6
; CHECK-NEXT: [[RANGE0:%.*]] = load i64, ptr [[RANGE0AT]], align 8
; CHECK-NEXT: [[WORD3:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 3
; CHECK-NEXT: store i64 [[RANGE0]], ptr [[WORD3]], align 8
; CHECK-NEXT: [[BEGIN0AT:%.*]] = getelementptr inbounds i64, ptr %1, i32 0
; CHECK-NEXT: [[BEGIN0:%.*]] = load i64, ptr [[BEGIN0AT]], align 8
; CHECK-NEXT: [[END0AT:%.*]] = getelementptr inbounds i64, ptr %1, i32 3
; CHECK-NEXT: [[END0:%.*]] = load i64, ptr [[END0AT]], align 8
; Dimension 1 likewise (launch words 7, 1 and 4).
; CHECK: getelementptr inbounds i64, ptr %1, i32 7
; CHECK: [[BEGIN1AT:%.*]] = getelementptr inbounds i64, ptr %1, i32 1
; CHECK-NEXT: [[BEGIN1:%.*]] = load i64, ptr [[BEGIN1AT]], align 8
; CHECK-NEXT: [[END1AT:%.*]] = getelementptr inbounds i64, ptr %1, i32 4
; CHECK-NEXT: [[END1:%.*]] = load i64, ptr [[END1AT]], align 8
; Dimension 2 does not exist: range 1, id 0.
; CHECK-NEXT: [[WORD5:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 5
; CHECK-NEXT: store i64 1, ptr [[WORD5]], align 8
; CHECK-NEXT: [[WORD2:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 2
; CHECK-NEXT: store i64 0, ptr [[WORD2]], align 8
; The loop over dimension 0 stores global id 0, the one inside it global id 1.
; CHECK-NEXT: [[ID0:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 0
; CHECK-NEXT: [[ANY0:%.*]] = icmp ult i64 [[BEGIN0]], [[END0]]
; CHECK-NEXT: br i1 [[ANY0]], label %[[LOOP0:wi.loop]], label %[[EXIT0:wi.exit]]
; CHECK: [[LOOP0]]:
; CHECK-NEXT: %wi.id = phi i64 [ [[BEGIN0]], %entry ], [ [[NEXT0:%.*]], %[[LATCH0:wi.exit[0-9]+]] ]
; CHECK-NEXT: store i64 %wi.id, ptr [[ID0]], align 8
; CHECK-NEXT: [[ID1:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 1
; CHECK-NEXT: [[ANY1:%.*]] = icmp ult i64 [[BEGIN1]], [[END1]]
; CHECK-NEXT: br i1 [[ANY1]], label %[[LOOP1:wi.loop[0-9]+]], label %[[LATCH0]]
; CHECK: [[EXIT0]]:
; CHECK-NEXT: ret void
; CHECK: [[LOOP1]]:
; CHECK-NEXT: [[I1:%.*]] = phi i64 [ [[BEGIN1]], %[[LOOP0]] ], [ [[NEXT1:%.*]], %[[LOOP1]] ]
; CHECK-NEXT: store i64 [[I1]], ptr [[ID1]], align 8
; CHECK-NEXT: call void @kernel(ptr [[OUT]], i32 [[SCALE]], i64 [[WIDTH]])
; CHECK-NEXT: [[NEXT1]] = add nuw i64 [[I1]], 1
; CHECK-NEXT: [[MORE1:%.*]] = icmp ult i64 [[NEXT1]], [[END1]]
; CHECK-NEXT: br i1 [[MORE1]], label %[[LOOP1]], label %[[LATCH0]], !llvm.loop [[INNER:![0-9]+]]
; CHECK: [[LATCH0]]:
; CHECK-NEXT: [[NEXT0]] = add nuw i64 %wi.id, 1
; CHECK-NEXT: [[MORE0:%.*]] = icmp ult i64 [[NEXT0]], [[END0]]
; CHECK-NEXT: br i1 [[MORE0]], label %[[LOOP0]], label %[[EXIT0]], !llvm.loop [[OUTER:![0-9]+]]
; CHECK-NEXT: }
; CHECK: declare ptr @aligned_alloc(i64, i64)
; CHECK: declare void @free(ptr)
; CHECK: attributes #0 = { nounwind }
; CHECK: !onepass.work_item_accesses = !{[[GROUP:![0-9]+]]}
; CHECK: [[GROUP]] = distinct !{}
; CHECK: [[INNER]] = distinct !{[[INNER]], [[PARALLEL:![0-9]+]], [[NOUNROLL:![0-9]+]]}
; CHECK: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", [[GROUP]]}
; CHECK: [[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK: [[OUTER]] = distinct !{[[OUTER]], [[PARALLEL]]}

; Offsets as given; three loops, the kernel in the innermost.
; OFFSETS: getelementptr inbounds i8, ptr %0, i32 16
; OFFSETS-NEXT: load ptr
; OFFSETS-NEXT: getelementptr inbounds i8, ptr %0, i32 0
; OFFSETS-NEXT: load i32
; OFFSETS-NEXT: getelementptr inbounds i8, ptr %0, i32 8
; OFFSETS-NEXT: load i64
; OFFSETS: getelementptr inbounds i64, ptr %wi.state, i32 0
; OFFSETS: getelementptr inbounds i64, ptr %wi.state, i32 1
; OFFSETS: getelementptr inbounds i64, ptr %wi.state, i32 2
; (Blocks print in the order they were made: the outer loop's latch first.)
; OFFSETS: label %wi.loop, label %wi.exit, !llvm.loop [[OUTER:![0-9]+]]
; OFFSETS: call void @kernel(
; OFFSETS-NEXT: add nuw
; OFFSETS-NEXT: icmp ult
; OFFSETS-NEXT: br i1 {{.*}}, !llvm.loop [[INNER:![0-9]+]]
; OFFSETS: br i1 {{.*}}, !llvm.loop [[MIDDLE:![0-9]+]]
; OFFSETS: [[OUTER]] = distinct !{[[OUTER]], [[PARALLEL:![0-9]+]]}
; OFFSETS: [[INNER]] = distinct !{[[INNER]], [[PARALLEL]], !{{[0-9]+}}}
; OFFSETS: [[MIDDLE]] = distinct !{[[MIDDLE]], [[PARALLEL]]}

; A single task: ranges 1, ids 0, one call, no loop.
; TASK-LABEL: define void @__onepass_cpu_launch(
; TASK: store i64 1, ptr
; TASK-NEXT: getelementptr inbounds i64, ptr %wi.state, i32 0
; TASK-NEXT: store i64 0, ptr
; TASK: getelementptr inbounds i64, ptr %wi.state, i32 5
; TASK-NEXT: store i64 1, ptr
; TASK-NEXT: getelementptr inbounds i64, ptr %wi.state, i32 2
; TASK-NEXT: store i64 0, ptr
; TASK-NEXT: call void @kernel(
; TASK-NEXT: ret void

; MISSING: error: no kernel function 'missing' to build work-item loops around
; DIMS: error: onepass-build-work-item-loops: 'dims' must be 1, 2 or 3
