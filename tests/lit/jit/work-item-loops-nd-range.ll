; The CPU launcher of nd_range kernels: loops over the chunk's work-groups
; (state words 12-14), and in each over its work-items (local ids, words
; 6-8), whose global id (words 0-2) is group * local range + local id. A
; compiled-in work-group range (local=) makes the trip counts constants.
; The group's local memory (local accessors' and the kernel's own, before
; them) and scratch are allocated once per call.
; With barriers (after onepass-lower-group-barriers of the same kernel) the
; launcher calls the kernel's step, phase after phase: while the group is
; together, a loop per resume point with a constant `from`; where the
; barrier lowering knows the next stop, straight on to that phase; where
; work-items may part, a loop calling each from where it stopped, then a
; check whether they came together again. A phase that singles out the
; first or last work-item (`local_id == 0`) runs those two apart from the loop.
; A kernel whose resume points times its step's instructions exceed the
; budget (phase-budget=, 32768 by default) gets one loop for all of them
; while the group is together (the step's `from` read from the group's
; state), then the check whether the group stayed together: code size and
; compile time grow with the kernel, not with the kernel times its barriers.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-build-work-item-loops<kernel=tiled;nd-range;dims=2;local=4x8;local-memory;group-local-bytes=64>" %t.bc \
; RUN:   | FileCheck %s --check-prefix=TILED
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=stepped>,onepass-build-work-item-loops<kernel=stepped;nd-range;local=16;group-scratch>" %t.bc \
; RUN:   | FileCheck %s --check-prefix=STEP
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=parting>,onepass-build-work-item-loops<kernel=parting;nd-range;local=16>" %t.bc \
; RUN:   | FileCheck %s --check-prefix=PARTING
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=edges>,onepass-build-work-item-loops<kernel=edges;nd-range;local=16>" %t.bc \
; RUN:   | FileCheck %s --check-prefix=EDGES
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=many>,onepass-build-work-item-loops<kernel=many;nd-range;local=16;phase-budget=200>" %t.bc \
; RUN:   | FileCheck %s --check-prefix=MANY
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=many>,onepass-build-work-item-loops<kernel=many;nd-range;local=16>" %t.bc \
; RUN:   | FileCheck %s --check-prefix=MANY-SPECIALIZED

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare void @__onepass_group_barrier()
declare i64 @__onepass_get_local_id(i32) nounwind willreturn memory(none)

define void @tiled(ptr %out) {
  ret void
}

; TILED-LABEL: define void @__onepass_cpu_launch(
; The local range is the compiled-in one (word 9, 10), the group range the
; global one divided by it (word 15, 16), the loops count groups.
; TILED: [[RANGE0:%.*]] = load i64, ptr %{{.*}}, align 8
; TILED-NEXT: [[W3:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 3
; TILED-NEXT: store i64 [[RANGE0]], ptr [[W3]]
; TILED: [[W9:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 9
; TILED-NEXT: store i64 4, ptr [[W9]]
; TILED-NEXT: [[GROUPS0:%.*]] = udiv i64 [[RANGE0]], 4
; TILED-NEXT: [[W15:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 15
; TILED-NEXT: store i64 [[GROUPS0]], ptr [[W15]]
; TILED: [[BEGIN0:%.*]] = udiv i64 %{{.*}}, 4
; TILED-NEXT: [[END0:%.*]] = udiv i64 %{{.*}}, 4
; TILED: [[W10:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 10
; TILED-NEXT: store i64 8, ptr [[W10]]
; Local memory: the launch's bytes (launch word 12) plus the kernel's own 64,
; which lie before the address the state gets (word 18), padded to 128 bytes,
; the local accessors' alignment; no scratch (19).
; TILED: [[LW12:%.*]] = getelementptr inbounds i64, ptr %1, i32 12
; TILED-NEXT: [[LAUNCHLOCAL:%.*]] = load i64, ptr [[LW12]], align 8
; TILED-NEXT: [[BYTES:%.*]] = add i64 [[LAUNCHLOCAL]], 128
; TILED: [[LOCAL:%.*]] = call ptr @aligned_alloc(i64 128, i64 %{{.*}})
; TILED-NEXT: [[ACCESSORS:%.*]] = getelementptr inbounds i8, ptr [[LOCAL]], i64 128
; TILED-NEXT: [[ADDRESS:%.*]] = ptrtoint ptr [[ACCESSORS]] to i64
; TILED-NEXT: [[W18:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 18
; TILED-NEXT: store i64 [[ADDRESS]], ptr [[W18]]
; TILED-NEXT: [[W19:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 19
; TILED-NEXT: store i64 0, ptr [[W19]]
; Group loops (ids in words 12, 13), then work-item loops (words 6, 7).
; TILED-NEXT: [[GROUP0:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 12
; TILED-NEXT: icmp ult i64 [[BEGIN0]], [[END0]]
; TILED: wi.loop:
; TILED: getelementptr inbounds i64, ptr %wi.state, i32 13
; TILED: wi.exit:
; TILED-NEXT: call void @free(ptr [[LOCAL]])
; TILED-NEXT: ret void
; TILED: wi.loop1:
; TILED: getelementptr inbounds i64, ptr %wi.state, i32 6
; TILED-NEXT: br i1 true, label %wi.loop4, label %wi.exit5
; TILED: wi.loop4:
; TILED: getelementptr inbounds i64, ptr %wi.state, i32 7
; TILED: wi.loop7:
; Global id 0 = group id 0 * 4 + local id 0; global id 1 likewise with 8.
; TILED: [[G0:%.*]] = load i64, ptr %{{.*}}, align 8
; TILED-NEXT: getelementptr inbounds i64, ptr %wi.state, i32 6
; TILED-NEXT: [[L0:%.*]] = load i64, ptr %{{.*}}, align 8
; TILED-NEXT: [[SCALED0:%.*]] = mul nuw i64 [[G0]], 4
; TILED-NEXT: [[ID0:%.*]] = add nuw i64 [[SCALED0]], [[L0]]
; TILED-NEXT: [[W0:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 0
; TILED-NEXT: store i64 [[ID0]], ptr [[W0]]
; TILED: mul nuw i64 %{{.*}}, 8
; TILED: call void @tiled(ptr
; The work-item loops run to the constant local range, the innermost one
; unrolled no further; the group loops have no metadata.
; TILED-NEXT: [[NEXT1:%.*]] = add nuw i64 %wi.id9, 1
; TILED-NEXT: [[MORE1:%.*]] = icmp ult i64 [[NEXT1]], 8
; TILED-NEXT: br i1 [[MORE1]], label %wi.loop7, label %wi.exit8, !llvm.loop [[INNER:![0-9]+]]
; TILED: icmp ult i64 %{{.*}}, 4
; TILED-NEXT: br i1 %{{.*}}, label %wi.loop4, label %wi.exit5, !llvm.loop [[OUTER:![0-9]+]]
; TILED-NEXT: }
; TILED: [[INNER]] = distinct !{[[INNER]], [[PARALLEL:![0-9]+]], !{{[0-9]+}}}
; TILED: [[OUTER]] = distinct !{[[OUTER]], [[PARALLEL]]}

define void @stepped(ptr %local, ptr %out) {
entry:
  %lid = call i64 @__onepass_get_local_id(i32 0)
  %slot = getelementptr i64, ptr %local, i64 %lid
  store i64 %lid, ptr %slot
  call void @__onepass_group_barrier()
  %first = load i64, ptr %local
  %dst = getelementptr i64, ptr %out, i64 %lid
  store i64 %first, ptr %dst
  ret void
}

; Known stops: the start leads to barrier 1, barrier 1 to the end.
; STEP: ; known stops: 0->1 1->end
; STEP-LABEL: define void @__onepass_cpu_launch(
; The scratch (16 work-items * 8 bytes, rounded), the frames and the group
; copies; no array of stops (every stop is known).
; STEP: [[SCRATCH:%.*]] = call ptr @aligned_alloc(i64 64, i64 192)
; STEP: [[FRAMES:%.*]] = call ptr @aligned_alloc(i64 64, i64 64)
; STEP-NEXT: [[COPIES:%.*]] = call ptr @aligned_alloc(i64 64, i64 64)
; STEP-NEXT: %group.from = alloca i32
; STEP-NEXT: %known.stop = alloca i32
; STEP: wi.loop:
; STEP: store i32 0, ptr %group.from
; STEP-NEXT: br label %phase
; STEP: wi.exit:
; STEP-NEXT: call void @free(ptr [[SCRATCH]])
; STEP-NEXT: call void @free(ptr [[FRAMES]])
; STEP-NEXT: call void @free(ptr [[COPIES]])
; STEP: phase:
; STEP-NEXT: br label %phase.together
; STEP: phase.together:
; STEP-NEXT: [[FROM:%.*]] = load i32, ptr %group.from
; STEP-NEXT: switch i32 [[FROM]], label %phase.unreachable [
; STEP-NEXT: i32 0, label %phase.from.0
; STEP-NEXT: i32 1, label %phase.from.1
; STEP: phase.unreachable:
; STEP-NEXT: unreachable
; From the start: every work-item's step from 0, together, then on to barrier 1.
; STEP: phase.from.0:
; STEP: call void @stepped.step(ptr %{{.*}}, ptr %{{.*}}, ptr [[COPIES]], ptr [[FRAMES]], i64 [[ITEM:%.*]], i64 16, i32 0, ptr %known.stop, i1 true)
; STEP: icmp ult i64 %{{.*}}, 16
; STEP: store i32 1, ptr %group.from
; STEP-NEXT: br label %phase
; STEP: phase.from.1:
; STEP: call void @stepped.step(ptr %{{.*}}, ptr %{{.*}}, ptr [[COPIES]], ptr [[FRAMES]], i64 %{{.*}}, i64 16, i32 1, ptr %known.stop, i1 true)
; STEP: store i32 -1, ptr %group.from
; STEP-NEXT: br label %phase.done
; STEP-NOT: phase.apart

define void @parting(ptr %local, i64 %n) {
entry:
  %lid = call i64 @__onepass_get_local_id(i32 0)
  %leave = icmp uge i64 %lid, %n
  br i1 %leave, label %exit, label %work

work:
  %slot = getelementptr i64, ptr %local, i64 %lid
  store i64 %lid, ptr %slot
  call void @__onepass_group_barrier()
  br label %exit

exit:
  ret void
}

; Work-items that leave before the barrier: from the start, the group may part.
; PARTING: ; stops together from: 1
; PARTING-NEXT: ; known stops: 1->end
; PARTING-LABEL: define void @__onepass_cpu_launch(
; Where each work-item stopped: 16 i32s.
; PARTING: [[STOPS:%.*]] = call ptr @aligned_alloc(i64 64, i64 128)
; PARTING-NEXT: %group.from = alloca i32
; PARTING-NEXT: %group.uniform = alloca i1
; PARTING: call void @llvm.memset.p0.i64(ptr align 16 [[STOPS]], i8 0, i64 64, i1 false)
; PARTING-NEXT: store i32 0, ptr %group.from
; PARTING-NEXT: store i1 true, ptr %group.uniform
; PARTING: phase:
; PARTING-NEXT: [[TOGETHER:%.*]] = load i1, ptr %group.uniform
; PARTING-NEXT: br i1 [[TOGETHER]], label %phase.together, label %phase.apart
; PARTING: switch i32 %{{.*}}, label %phase.apart [
; From the start, together: each work-item tells where it stopped, then the check.
; PARTING: phase.from.0:
; PARTING: [[STOP0:%.*]] = getelementptr inbounds i32, ptr [[STOPS]], i64 [[ITEM0:%.*]]
; PARTING-NEXT: call void @parting.step({{.*}}, i64 [[ITEM0]], i64 16, i32 0, ptr [[STOP0]], i1 true)
; PARTING: br label %phase.settle
; PARTING: phase.from.1:
; PARTING: call void @parting.step({{.*}}, i32 1, ptr %known.stop, i1 true)
; Apart: each work-item not done runs from where it stopped.
; PARTING: [[STOP:%.*]] = getelementptr inbounds i32, ptr [[STOPS]], i64 [[ITEM:%.*]]
; PARTING-NEXT: [[AT:%.*]] = load i32, ptr [[STOP]]
; PARTING-NEXT: [[NOTDONE:%.*]] = icmp ne i32 [[AT]], -1
; PARTING-NEXT: br i1 [[NOTDONE]], label %wi.step, label %wi.next
; PARTING: wi.step:
; PARTING-NEXT: call void @parting.step({{.*}}, i64 [[ITEM]], i64 16, i32 [[AT]], ptr [[STOP]], i1 false)
; Whether all stopped at the same place, and whether any is not done.
; PARTING: phase.check:
; PARTING: phase.checked:
; PARTING-NEXT: store i1 [[SAME:%.*]], ptr %group.uniform
; PARTING-NEXT: store i32 [[FIRST:%.*]], ptr %group.from
; PARTING-NEXT: br i1 [[LEFT:%.*]], label %phase, label %phase.done

define void @edges(ptr %local, ptr %out) {
entry:
  %lid = call i64 @__onepass_get_local_id(i32 0)
  %slot = getelementptr i64, ptr %local, i64 %lid
  store i64 %lid, ptr %slot
  call void @__onepass_group_barrier()
  %first = icmp eq i64 %lid, 0
  br i1 %first, label %then, label %exit

then:
  %v = load i64, ptr %local
  store i64 %v, ptr %out
  br label %exit

exit:
  ret void
}

; After the barrier, work-item 0 alone reads: it and work-item 15 run apart,
; the loop covers 1 to 14 (the phase from the start does not single them out).
; EDGES: phase.from.0:
; EDGES: %wi.id3 = phi i64 [ 0, %phase.from.0 ]
; EDGES: phase.from.1:
; EDGES-NEXT: [[LOCAL0:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 6
; EDGES-NEXT: store i64 0, ptr [[LOCAL0]]
; EDGES: call void @edges.step({{.*}}, i32 1, ptr %known.stop, i1 true)
; EDGES: wi.loop4:
; EDGES-NEXT: %wi.id6 = phi i64 [ 1, %phase.from.1 ]
; EDGES: call void @edges.step({{.*}}, i32 1, ptr %known.stop, i1 true)
; EDGES: icmp ult i64 %{{.*}}, 15
; EDGES: wi.exit5:
; EDGES-NEXT: [[LOCAL15:%.*]] = getelementptr inbounds i64, ptr %wi.state, i32 6
; EDGES-NEXT: store i64 15, ptr [[LOCAL15]]
; EDGES: call void @edges.step({{.*}}, i32 1, ptr %known.stop, i1 true)
; EDGES-NEXT: store i32 -1, ptr %group.from

; 12 barriers, 13 resume points of a step of some 40 instructions, each
; stop known: over a budget of 200, one loop; within the default budget, a
; loop per resume point.
define void @many(ptr %local) {
  %lid = call i64 @__onepass_get_local_id(i32 0)
  %slot = getelementptr i64, ptr %local, i64 %lid
  call void @__onepass_group_barrier()
  store i64 0, ptr %slot
  call void @__onepass_group_barrier()
  store i64 1, ptr %slot
  call void @__onepass_group_barrier()
  store i64 2, ptr %slot
  call void @__onepass_group_barrier()
  store i64 3, ptr %slot
  call void @__onepass_group_barrier()
  store i64 4, ptr %slot
  call void @__onepass_group_barrier()
  store i64 5, ptr %slot
  call void @__onepass_group_barrier()
  store i64 6, ptr %slot
  call void @__onepass_group_barrier()
  store i64 7, ptr %slot
  call void @__onepass_group_barrier()
  store i64 8, ptr %slot
  call void @__onepass_group_barrier()
  store i64 9, ptr %slot
  call void @__onepass_group_barrier()
  store i64 10, ptr %slot
  call void @__onepass_group_barrier()
  store i64 11, ptr %slot
  ret void
}

; MANY: ; frame: {{[0-9]+}} bytes, align {{[0-9]+}}, 12 barrier(s)
; MANY-LABEL: define void @__onepass_cpu_launch(
; MANY: phase.together:
; MANY-NEXT: %group.resume = load i32, ptr %group.from
; MANY-NOT: phase.from
; MANY: phase.apart:
; MANY: phase.settle:
; MANY: call void @many.step(ptr %{{.*}}, ptr [[COPIES:%.*]], ptr [[FRAMES:%.*]], i64 %{{.*}}, i64 16, i32 %group.resume, ptr %{{.*}}, i1 true)
; MANY: br label %phase.settle
; MANY: call void @many.step(ptr %{{.*}}, ptr [[COPIES]], ptr [[FRAMES]], i64 %{{.*}}, i64 16, i32 %{{.*}}, ptr %{{.*}}, i1 false)
; MANY: phase.check:
; MANY-NOT: phase.from

; MANY-SPECIALIZED-LABEL: define void @__onepass_cpu_launch(
; MANY-SPECIALIZED: phase.from.0:
; MANY-SPECIALIZED: phase.from.12:
; MANY-SPECIALIZED-NOT: phase.apart
