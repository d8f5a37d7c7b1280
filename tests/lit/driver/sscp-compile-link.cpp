// A sanitizer build's onepass++ adds -fsanitize to link commands; this test
// checks the exact commands of the normal build.
// UNSUPPORTED: sanitizer
// Compiling and linking in one step gets both sets of flags; the runtime
// library comes after the user's inputs.
// RUN: %onepass -fsycl-sscp -### %s -o %t.out 2>&1 \
// RUN:   | FileCheck %s -DPREFIX=%{onepass_prefix} --implicit-check-not=warning:

// CHECK:      onepass++: running:
// CHECK-SAME:   -fplugin=[[PREFIX]]/lib/onepass/libonepass-clang-plugin.so
// CHECK-SAME:   sscp-compile-link.cpp -o
// CHECK-SAME:   -L[[PREFIX]]/lib -Wl,-rpath,[[PREFIX]]/lib -lonepass-rt{{$}}
// CHECK:      "-cc1"
// CHECK-SAME:   "-load" "[[PREFIX]]/lib/onepass/libonepass-clang-plugin.so"
// CHECK:      "-L[[PREFIX]]/lib"
// CHECK-SAME:   "-rpath" "[[PREFIX]]/lib"
// CHECK-SAME:   "-lonepass-rt"
