; Hierarchical kernels the lowering at group size leaves to the leader
; (jit/src/HierarchicalLowering.h), saying why: a value a region computes
; that the work-group scope uses afterwards, and a sub-group operation. The
; leader then runs everything as a group of one work-item (local id 0, local
; range 1, global queries as the group's), the others return at once, and
; the markers and barriers go.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=escapes>" %t.bc 2>%t.err | FileCheck %s --check-prefix=ESCAPES
; RUN: FileCheck %s --check-prefix=ESCAPES-WHY < %t.err
; RUN: %jit-opt -passes="onepass-lower-hierarchical<kernel=shuffles>" %t.bc 2>%t.err | FileCheck %s --check-prefix=SHUFFLES
; RUN: FileCheck %s --check-prefix=SHUFFLES-WHY < %t.err

declare i64 @__onepass_get_local_id(i32) memory(none) nounwind willreturn
declare i64 @__onepass_get_local_range(i32) memory(none) nounwind willreturn
declare i64 @__onepass_get_global_id(i32) memory(none) nounwind willreturn
declare void @__onepass_hierarchical_region_begin(ptr) convergent
declare void @__onepass_hierarchical_region_end() convergent
declare void @__onepass_group_barrier() convergent
declare i32 @__onepass_sub_group_shuffle(i32, i32) convergent

; ESCAPES-WHY: onepass-lower-hierarchical: on the leader: a value computed in parallel_for_work_item is used after it
; ESCAPES-LABEL: define void @escapes(
; ESCAPES: hier.entry:
; ESCAPES: %hier.leader = icmp eq i64
; ESCAPES-NEXT: br i1 %hier.leader, label %entry, label %hier.others
; ESCAPES: %x = load i32, ptr %in
; ESCAPES-NEXT: %p = getelementptr i32, ptr %out, i64 1
; ESCAPES-NEXT: store i32 %x, ptr %p
; ESCAPES: store i32 %x, ptr %out
; ESCAPES: hier.others:
; ESCAPES-NEXT: ret void
; ESCAPES-NOT: __onepass_group_barrier
; ESCAPES-NOT: __onepass_hierarchical_region
; ESCAPES: }
define void @escapes(ptr %in, ptr %out) {
entry:
  call void @__onepass_hierarchical_region_begin(ptr null)
  %x = load i32, ptr %in
  %range = call i64 @__onepass_get_local_range(i32 0)
  %p = getelementptr i32, ptr %out, i64 %range
  store i32 %x, ptr %p
  call void @__onepass_group_barrier()
  call void @__onepass_hierarchical_region_end()
  store i32 %x, ptr %out
  ret void
}

; SHUFFLES-WHY: onepass-lower-hierarchical: on the leader: it calls the collective operation '__onepass_sub_group_shuffle' at work-group scope or in parallel_for_work_item
; SHUFFLES-LABEL: define void @shuffles(
; SHUFFLES: %g = call i64 @__onepass_get_group_id(i32 0)
; SHUFFLES: %p = getelementptr i32, ptr %out, i64 %g
; SHUFFLES: %q = getelementptr i32, ptr %out, i64 0
; SHUFFLES: hier.others:
; SHUFFLES: }
define void @shuffles(ptr %out) {
entry:
  call void @__onepass_hierarchical_region_begin(ptr null)
  %s = call i32 @__onepass_sub_group_shuffle(i32 1, i32 0)
  %g = call i64 @__onepass_get_global_id(i32 0)
  %p = getelementptr i32, ptr %out, i64 %g
  store i32 %s, ptr %p
  %l = call i64 @__onepass_get_local_id(i32 0)
  %q = getelementptr i32, ptr %out, i64 %l
  store i32 %s, ptr %q
  call void @__onepass_hierarchical_region_end()
  ret void
}
