# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
f(a=1, 2)
# CHECK:      {{.*}}static-positional-after-keyword.py:[[@LINE-1]]:8: error: positional argument follows keyword argument
# CHECK-NEXT: f(a=1, 2)
# CHECK-NEXT:        ^
