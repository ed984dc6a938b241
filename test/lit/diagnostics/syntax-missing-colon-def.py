# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f(x)
    pass
# CHECK:      {{.*}}syntax-missing-colon-def.py:[[@LINE-2]]:9: error: invalid syntax: expected ':'
# CHECK-NEXT: def f(x)
# CHECK-NEXT:         ^
