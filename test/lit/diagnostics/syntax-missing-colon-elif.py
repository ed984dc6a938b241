# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
if x:
    pass
elif y
    pass
# CHECK:      {{.*}}syntax-missing-colon-elif.py:[[@LINE-2]]:7: error: invalid syntax: expected ':'
# CHECK-NEXT: elif y
# CHECK-NEXT:       ^
