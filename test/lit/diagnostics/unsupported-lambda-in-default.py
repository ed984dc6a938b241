# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f(g=lambda: 1):
    return g
# CHECK:      {{.*}}unsupported-lambda-in-default.py:[[@LINE-2]]:9: error: lambda expressions are not supported by agc
# CHECK-NEXT: def f(g=lambda: 1):
# CHECK-NEXT:         ^~~~~~~~~
