# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = 1j
# CHECK:      {{.*}}unsupported-complex-literal.py:[[@LINE-1]]:5: error: complex numbers are not supported by agc
# CHECK-NEXT: x = 1j
# CHECK-NEXT:     ^~
