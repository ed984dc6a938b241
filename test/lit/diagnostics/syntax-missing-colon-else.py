# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
if x:
    pass
else
    pass
# CHECK:      {{.*}}syntax-missing-colon-else.py:[[@LINE-2]]:5: error: invalid syntax: expected ':'
# CHECK-NEXT: else
# CHECK-NEXT:     ^
