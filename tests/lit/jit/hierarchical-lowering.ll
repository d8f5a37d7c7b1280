; A hierarchical kernel at group size (jit/src/HierarchicalLowering.h): the
; leader runs the work-group scope (here: a load, a store to a work-group
; variable, an early return) and names the region in group-local memory;
; every work-item runs the region between two barriers. The work-group
; variable moves to group-local memory, the leader's loaded value is passed
; through a slot, the local-id query the region shares with the work-group
; scope is recomputed in the region, the region's own barrier goes, and the
; leader's value used again after the region goes through its own memory.
; The uniform prefix (@prefix): the start of the kernel builds a copy of an
; argument, a closure holding its address and the address of a work-group
; array; every work-item runs it and keeps its own copies (written only
; there, their addresses only in each other), while the array, which the
; region writes, is the group's.
; A kernel that is one region after the prefix (@direct, the usual
; parallel_for_work_item over the group): everyone enters the region at once
; and returns after it, with no barrier at all.
; A loop of the work-group scope around a region (@loop): the region is not
; the last, so after it everyone meets again at hier.sync, and the leader's
; return tells the others to leave.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=kernel>" %t.bc 2>%t.err | FileCheck %s
; RUN: not test -s %t.err
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=loop>" %t.bc 2>%t.err | FileCheck %s --check-prefix=LOOP
; RUN: not test -s %t.err
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=prefix>" %t.bc 2>%t.err | FileCheck %s --check-prefix=PREFIX
; RUN: not test -s %t.err
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=direct>" %t.bc 2>%t.err | FileCheck %s --check-prefix=DIRECT
; RUN: not test -s %t.err

declare i64 @__onepass_get_local_id(i32) memory(none) nounwind willreturn
declare i64 @__onepass_get_local_range(i32) memory(none) nounwind willreturn
declare void @__onepass_hierarchical_region_begin(ptr) convergent
declare void @__onepass_hierarchical_region_end() convergent
declare void @__onepass_group_barrier() convergent
declare i64 @__onepass_get_group_id(i32) memory(none) nounwind willreturn

; CHECK-LABEL: define void @kernel(
; CHECK: hier.entry:
; CHECK: %v.reg2mem = alloca i32
; CHECK-DAG: %shared = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; CHECK-DAG: %hier.next = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; CHECK-DAG: %v.slot = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; CHECK: %hier.leader = icmp eq i64
; CHECK-NEXT: br i1 %hier.leader, label %entry, label %hier.sync
; CHECK: entry:
; CHECK-NEXT: store i32 0, ptr %out
; CHECK-NEXT: %v = load i32, ptr %in
; CHECK: store i32 %v.reload{{[0-9]*}}, ptr %v.slot
; CHECK: go:
; CHECK-NEXT: br label %hier.yield
; CHECK: hier.region:
; CHECK-NEXT: %lid.here = call i64 @__onepass_get_local_id(i32 0)
; CHECK-NEXT: %v.shared = load i32, ptr %v.slot
; CHECK: %i = phi i64 [ %lid.here, %hier.region ]
; CHECK: %sum = add i32 %s, %v.shared
; CHECK: done:
; CHECK-NEXT: br label %hier.joined
; The region is the last before the kernel returns: the leader returns
; after it without a barrier, and the others leave after it (hier.others).
; CHECK: hier.after:
; CHECK: %w2 = add i32 %w, %v.reload
; CHECK-NEXT: store i32 %w2, ptr %in
; CHECK-NEXT: ret void
; CHECK: quit:
; CHECK-NEXT: store i32 0, ptr %hier.next
; CHECK-NEXT: br label %hier.sync
; CHECK: hier.sync:
; CHECK-NEXT: call void @__onepass_group_barrier()
; CHECK-NEXT: %hier.chosen = load i32, ptr %hier.next
; CHECK-NEXT: %[[ONE:.+]] = icmp eq i32 %hier.chosen, 1
; CHECK-NEXT: br i1 %[[ONE]], label %hier.region, label %hier.exit
; CHECK: hier.exit:
; CHECK-NEXT: ret void
; CHECK: hier.joined:
; CHECK-NEXT: %hier.which = phi i32 [ 1, %done ]
; CHECK-NEXT: call void @__onepass_group_barrier()
; CHECK-NEXT: br i1 %hier.leader, label %hier.resume, label %hier.others
; CHECK: hier.resume:
; CHECK-NEXT: br label %hier.after
; CHECK: hier.others:
; CHECK-NEXT: %[[CLOSED:.+]] = icmp eq i32 %hier.which, 1
; CHECK-NEXT: br i1 %[[CLOSED]], label %hier.exit, label %hier.sync
; CHECK: hier.yield:
; CHECK-NEXT: store i32 1, ptr %hier.next
; CHECK-NEXT: br label %hier.sync
; Two barriers in all: the region's own went.
; CHECK-NOT: call void @__onepass_group_barrier()
; CHECK-NOT: __onepass_hierarchical_region
; CHECK: }

define void @kernel(ptr %in, ptr %out, i1 %early) {
entry:
  %shared = alloca i32, align 4
  store i32 0, ptr %out    ; (a write to global memory: the leader's from here on)
  %v = load i32, ptr %in
  store i32 %v, ptr %shared
  %lid = call i64 @__onepass_get_local_id(i32 0)
  br i1 %early, label %quit, label %go
go:
  call void @__onepass_hierarchical_region_begin(ptr %shared)
  %range = call i64 @__onepass_get_local_range(i32 0)
  br label %loop
loop:
  %i = phi i64 [ %lid, %go ], [ %i.next, %loop ]
  %s = load i32, ptr %shared
  %sum = add i32 %s, %v
  %p = getelementptr i32, ptr %out, i64 %i
  store i32 %sum, ptr %p
  %i.next = add i64 %i, %range
  %c = icmp ult i64 %i.next, 64
  br i1 %c, label %loop, label %done
done:
  call void @__onepass_group_barrier()
  call void @__onepass_hierarchical_region_end()
  %w = load i32, ptr %shared
  %w2 = add i32 %w, %v
  store i32 %w2, ptr %in
  ret void
quit:
  ret void
}

; LOOP-LABEL: define void @loop(
; LOOP: hier.entry:
; LOOP: %n.slot = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; LOOP: br i1 %hier.leader, label %entry, label %hier.sync
; LOOP: hier.region:
; LOOP-NEXT: %n.shared = load i32, ptr %n.slot
; LOOP: next:
; LOOP: br i1 %more, label %head, label %finish
; LOOP: finish:
; LOOP-NEXT: store i32 0, ptr %hier.next
; LOOP-NEXT: br label %hier.sync
; LOOP: hier.joined:
; LOOP-NEXT: call void @__onepass_group_barrier()
; LOOP-NEXT: br i1 %hier.leader, label %hier.resume, label %hier.sync
; LOOP-NOT: hier.others
; LOOP: }
define void @loop(ptr %out) {
entry:
  br label %head
head:
  %n = phi i32 [ 0, %entry ], [ %n.next, %next ]
  call void @__onepass_hierarchical_region_begin(ptr null)
  %l = call i64 @__onepass_get_local_id(i32 0)
  %p = getelementptr i32, ptr %out, i64 %l
  store i32 %n, ptr %p
  call void @__onepass_hierarchical_region_end()
  br label %next
next:
  %n.next = add i32 %n, 1
  %more = icmp ult i32 %n.next, 4
  br i1 %more, label %head, label %finish
finish:
  ret void
}

; PREFIX-LABEL: define void @prefix(
; PREFIX: hier.entry:
; PREFIX-NEXT: %copy = alloca i64
; PREFIX-NEXT: %closure = alloca [2 x ptr]
; PREFIX-NEXT: %tile = call ptr @__onepass_group_local_memory(i64 256, i64 4)
; PREFIX-NEXT: %g = call i64 @__onepass_get_group_id(i32 0)
; PREFIX-NEXT: store i64 %n, ptr %copy
; PREFIX-NEXT: store ptr %copy, ptr %closure
; PREFIX-NEXT: %second = getelementptr i8, ptr %closure, i64 8
; PREFIX-NEXT: store ptr %tile, ptr %second
; PREFIX-NEXT: %hier.next = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; PREFIX: br i1 %hier.leader, label %entry, label %hier.sync
; PREFIX: entry:
; PREFIX-NEXT: store i64 %g, ptr %out
; PREFIX: hier.region:
; PREFIX-NEXT: %l = call i64 @__onepass_get_local_id(i32 0)
; PREFIX-NEXT: %pn = load ptr, ptr %closure
; PREFIX-NOT: .shared
; PREFIX-NOT: .slot
; PREFIX: }
define void @prefix(ptr %out, i64 %n) {
entry:
  %copy = alloca i64
  %closure = alloca [2 x ptr]
  %tile = alloca [64 x i32]
  %g = call i64 @__onepass_get_group_id(i32 0)
  store i64 %n, ptr %copy
  store ptr %copy, ptr %closure
  %second = getelementptr i8, ptr %closure, i64 8
  store ptr %tile, ptr %second
  store i64 %g, ptr %out
  call void @__onepass_hierarchical_region_begin(ptr %closure)
  %l = call i64 @__onepass_get_local_id(i32 0)
  %pn = load ptr, ptr %closure
  %nv = load i64, ptr %pn
  %pt = load ptr, ptr %second
  %slot = getelementptr i32, ptr %pt, i64 %l
  %t = trunc i64 %nv to i32
  store i32 %t, ptr %slot
  call void @__onepass_hierarchical_region_end()
  %back = load i32, ptr %tile
  %wide = zext i32 %back to i64
  %sum = add i64 %wide, %g
  store i64 %sum, ptr %out
  ret void
}

; DIRECT-LABEL: define void @direct(
; DIRECT: hier.entry:
; DIRECT: store i64 %n, ptr %copy
; DIRECT: br label %hier.region
; DIRECT: hier.region:
; DIRECT-NEXT: %l = call i64 @__onepass_get_local_id(i32 0)
; DIRECT-NEXT: %nv = load i64, ptr %copy
; DIRECT: br label %hier.exit
; DIRECT-NOT: call void @__onepass_group_barrier()
; DIRECT: }
define void @direct(ptr %out, i64 %n) {
entry:
  %copy = alloca i64
  store i64 %n, ptr %copy
  call void @__onepass_hierarchical_region_begin(ptr %copy)
  %l = call i64 @__onepass_get_local_id(i32 0)
  %nv = load i64, ptr %copy
  %slot = getelementptr i64, ptr %out, i64 %l
  store i64 %nv, ptr %slot
  call void @__onepass_hierarchical_region_end()
  ret void
}
