# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
for i in y:
    return i
# CHECK:      {{.*}}static-return-in-module-loop.py:[[@LINE-1]]:5: error: 'return' outside function
# CHECK-NEXT:     return i
# CHECK-NEXT:     ^~~~~~~~
