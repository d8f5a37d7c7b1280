; Where the group stops after each phase, when only one place can be reached:
; whatever branches a work-item takes on its id before the barrier (a tile's
; halo loads), every path leads to the same barrier, so the group stops
; together there, a place the launcher knows without reading it. After a
; loop with a barrier in it, a phase may stop at the barrier again or at the
; end: together (uniform branches only), but not at a known place. A kernel
; whose work-items may leave before a barrier on their id has neither.
; RUN: llvm-as %s -o %t.bc
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=halo>" %t.bc | FileCheck %s --check-prefix=HALO
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=rounds>" %t.bc | FileCheck %s --check-prefix=ROUNDS
; RUN: %jit-opt -passes="onepass-lower-group-barriers<kernel=leaving>" %t.bc | FileCheck %s --check-prefix=LEAVING

declare void @__onepass_group_barrier()
declare i64 @__onepass_get_local_id(i32) nounwind willreturn memory(none)

define void @halo(ptr %local, ptr %in, ptr %out) {
entry:
  %lid = call i64 @__onepass_get_local_id(i32 0)
  %own = getelementptr float, ptr %in, i64 %lid
  %v = load float, ptr %own
  %slot = getelementptr float, ptr %local, i64 %lid
  store float %v, ptr %slot
  %first = icmp eq i64 %lid, 0
  br i1 %first, label %edge, label %sync

edge:
  %left = getelementptr float, ptr %in, i64 -1
  %l = load float, ptr %left
  store float %l, ptr %local
  br label %sync

sync:
  call void @__onepass_group_barrier()
  %w = load float, ptr %local
  store float %w, ptr %out
  ret void
}

; HALO: ; stops together from: 0 1
; HALO-NEXT: ; known stops: 0->1 1->end

define void @rounds(ptr %local, i64 %count) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %next, %loop ]
  call void @__onepass_group_barrier()
  %next = add i64 %k, 1
  %done = icmp eq i64 %next, %count
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; ROUNDS: ; stops together from: 0 1
; ROUNDS-NEXT: ; known stops: 0->1{{$}}

define void @leaving(ptr %local) {
entry:
  %lid = call i64 @__onepass_get_local_id(i32 0)
  %early = icmp eq i64 %lid, 3
  br i1 %early, label %exit, label %sync

sync:
  call void @__onepass_group_barrier()
  br label %exit

exit:
  ret void
}

; LEAVING: ; stops together from: 1{{$}}
; LEAVING-NEXT: ; known stops: 1->end{{$}}
