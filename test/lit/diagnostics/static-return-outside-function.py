# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = 1
return x
# CHECK:      {{.*}}static-return-outside-function.py:[[@LINE-1]]:1: error: 'return' outside function
# CHECK-NEXT: return x
# CHECK-NEXT: ^~~~~~~~
