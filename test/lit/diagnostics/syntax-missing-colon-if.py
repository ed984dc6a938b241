# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
if x
    pass
# CHECK:      {{.*}}syntax-missing-colon-if.py:[[@LINE-2]]:5: error: invalid syntax: expected ':'
# CHECK-NEXT: if x
# CHECK-NEXT:     ^
