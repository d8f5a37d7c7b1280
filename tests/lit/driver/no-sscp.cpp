// Without -fsycl-sscp, onepass++ is plain clang++: nothing is added.
// RUN: %onepass -### -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=COMPILE \
// RUN:   --implicit-check-not=-load --implicit-check-not=plugin \
// RUN:   --implicit-check-not=__ONEPASS_SSCP__ --implicit-check-not=running:
// RUN: touch %t.o
// RUN: %onepass -### %t.o -o %t.out 2>&1 | FileCheck %s --check-prefix=LINK \
// RUN:   --implicit-check-not=onepass-rt --implicit-check-not=running:

// COMPILE: "-cc1"
// COMPILE-SAME: "-main-file-name" "no-sscp.cpp"
// LINK: "-o" "{{[^"]*}}.out"
