// With -fsycl-sscp, a compile-only invocation gets the plugin, the SYCL
// headers and __ONEPASS_SSCP__, and nothing for the linker (clang would warn
// about unused -L). -### shows onepass++'s command, then clang's own.
// RUN: %onepass -fsycl-sscp -### -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s -DPREFIX=%{onepass_prefix} --implicit-check-not=onepass-rt \
// RUN:       --implicit-check-not=fsycl-sscp --implicit-check-not=warning:

// CHECK:      onepass++: running: {{[^ ]*}}clang++{{[^ ]*}}
// CHECK-SAME:   -fplugin=[[PREFIX]]/lib/onepass/libonepass-clang-plugin.so
// CHECK-SAME:   -fpass-plugin=[[PREFIX]]/lib/onepass/libonepass-clang-plugin.so
// CHECK-SAME:   -isystem [[PREFIX]]/include/onepass -D__ONEPASS_SSCP__=1 -Xclang -ffloat16-excess-precision=none -### -c
// CHECK-SAME:   sscp-compile.cpp -o
// CHECK:      "-cc1"
// CHECK-SAME:   "-isystem" "[[PREFIX]]/include/onepass"
// CHECK-SAME:   "-D" "__ONEPASS_SSCP__=1"
// CHECK-SAME:   "-load" "[[PREFIX]]/lib/onepass/libonepass-clang-plugin.so"
// CHECK-SAME:   "-fpass-plugin=[[PREFIX]]/lib/onepass/libonepass-clang-plugin.so"

// -v prints the same first line (the real compile would need the plugin, so
// this only checks the line with -### added).
// RUN: %onepass -fsycl-sscp -v -### -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=VERBOSE
// VERBOSE: onepass++: running: {{.*}} -fplugin={{.*}} -v -### -fsyntax-only
