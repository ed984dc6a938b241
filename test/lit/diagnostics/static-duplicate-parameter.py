# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f(x, y, x):
    pass
# CHECK:      {{.*}}static-duplicate-parameter.py:[[@LINE-2]]:13: error: duplicate argument 'x' in function definition
# CHECK-NEXT: def f(x, y, x):
# CHECK-NEXT:             ^
