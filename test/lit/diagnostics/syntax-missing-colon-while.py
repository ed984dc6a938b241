# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
while x
    pass
# CHECK:      {{.*}}syntax-missing-colon-while.py:[[@LINE-2]]:8: error: invalid syntax: expected ':'
# CHECK-NEXT: while x
# CHECK-NEXT:        ^
