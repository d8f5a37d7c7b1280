; A hierarchical kernel at group size (jit/src/HierarchicalLowering.h): the
; leader runs the work-group scope (here: a load, a store to a work-group
; variable, an early return) and names the region in group-local memory;
; every work-item runs the region between two barriers. The work-group
; variable moves to group-local memory, the leader's loaded value is passed
; through a slot, the local-id query the region shares with the work-group
; scope is recomputed in the region, the region's own barrier goes, and the
; leader's value used again after the region goes through its own memory.
; A loop of the work-group scope around a region (@loop): the region is not
; the last, so after it everyone meets again at hier.sync, and the leader's
; return tells the others to leave.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=kernel>" %t.bc 2>%t.err | FileCheck %s
; RUN: not test -s %t.err
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=loop>" %t.bc 2>%t.err | FileCheck %s --check-prefix=LOOP
; RUN: not test -s %t.err

declare i64 @__onepass_get_local_id(i32) memory(none) nounwind willreturn
declare i64 @__onepass_get_local_range(i32) memory(none) nounwind willreturn
declare void @__onepass_hierarchical_region_begin(ptr) convergent
declare void @__onepass_hierarchical_region_end() convergent
declare void @__onepass_group_barrier() convergent

; CHECK-LABEL: define void @kernel(
; CHECK: hier.entry:
; CHECK: %v.reg2mem = alloca i32
; CHECK-DAG: %shared = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; CHECK-DAG: %hier.next = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; CHECK-DAG: %v.slot = call ptr @__onepass_group_local_memory(i64 4, i64 4)
; CHECK: %hier.leader = icmp eq i64
; CHECK-NEXT: br i1 %hier.leader, label %entry, label %hier.sync
; CHECK: entry:
; CHECK: %v = load i32, ptr %in
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
; CHECK-NEXT: switch i32 %hier.chosen, label %hier.exit [
; CHECK-NEXT: i32 1, label %hier.region
; CHECK: hier.exit:
; CHECK-NEXT: ret void
; CHECK: hier.joined:
; CHECK-NEXT: %hier.which = phi i32 [ 1, %done ]
; CHECK-NEXT: call void @__onepass_group_barrier()
; CHECK-NEXT: br i1 %hier.leader, label %hier.resume, label %hier.others
; CHECK: hier.resume:
; CHECK-NEXT: switch i32 %hier.which, label %hier.unreachable [
; CHECK-NEXT: i32 1, label %hier.after
; CHECK: hier.others:
; CHECK-NEXT: switch i32 %hier.which, label %hier.sync [
; CHECK-NEXT: i32 1, label %hier.exit
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
; LOOP-NEXT: %hier.which = phi i32 [ 1, %hier.region ]
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
