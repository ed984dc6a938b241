# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = 2 + 3.5J
# CHECK:      {{.*}}unsupported-complex-literal-float.py:[[@LINE-1]]:9: error: complex numbers are not supported by agc
# CHECK-NEXT: x = 2 + 3.5J
# CHECK-NEXT:         ^~~~
