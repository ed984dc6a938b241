# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
for i in y
    pass
# CHECK:      {{.*}}syntax-missing-colon-for.py:[[@LINE-2]]:11: error: invalid syntax: expected ':'
# CHECK-NEXT: for i in y
# CHECK-NEXT:           ^
