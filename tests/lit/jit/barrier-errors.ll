; What the CPU barrier lowering refuses, with the reason: a local array whose
; size is only known at run time, and a barrier reached through recursion.
; RUN: llvm-as %s -o %t.bc
; RUN: not %jit-opt -passes="onepass-lower-group-barriers<kernel=dynamic>" %t.bc 2>&1 | FileCheck %s --check-prefix=DYNAMIC
; RUN: not %jit-opt -passes="onepass-lower-group-barriers<kernel=recursive>" %t.bc 2>&1 | FileCheck %s --check-prefix=RECURSIVE

declare void @__onepass_group_barrier()

define void @dynamic(ptr %out, i64 %n) {
  %array = alloca i32, i64 %n
  store i32 1, ptr %array
  call void @__onepass_group_barrier()
  %v = load i32, ptr %array
  store i32 %v, ptr %out
  ret void
}
; DYNAMIC: error: kernel 'dynamic' has a local array whose size is only known at run time and a work-group barrier; the CPU device cannot run it

define internal void @again(i32 %depth) {
  call void @__onepass_group_barrier()
  %more = icmp sgt i32 %depth, 0
  br i1 %more, label %deeper, label %done
deeper:
  %d = sub i32 %depth, 1
  call void @again(i32 %d)
  br label %done
done:
  ret void
}

define void @recursive(i32 %depth) {
  call void @again(i32 %depth)
  ret void
}
; RECURSIVE: error: kernel 'recursive' reaches a work-group barrier through a recursive function; the CPU device cannot run it
