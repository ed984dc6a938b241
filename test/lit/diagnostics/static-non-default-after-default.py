# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f(a=1, b):
    pass
# CHECK:      {{.*}}static-non-default-after-default.py:[[@LINE-2]]:12: error: non-default argument 'b' follows default argument
# CHECK-NEXT: def f(a=1, b):
# CHECK-NEXT:            ^
