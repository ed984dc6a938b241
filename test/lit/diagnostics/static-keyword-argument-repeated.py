# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
f(a=1, a=2)
# CHECK:      {{.*}}static-keyword-argument-repeated.py:[[@LINE-1]]:8: error: keyword argument repeated: a
# CHECK-NEXT: f(a=1, a=2)
# CHECK-NEXT:        ^~~
