# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f():
    raise ValueError("x")
# CHECK:      {{.*}}unsupported-raise.py:[[@LINE-1]]:5: error: 'raise' statements are not supported by agc
# CHECK-NEXT:     raise ValueError("x")
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
