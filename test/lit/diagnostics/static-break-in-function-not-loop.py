# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f():
    if x:
        break
# CHECK:      {{.*}}static-break-in-function-not-loop.py:[[@LINE-1]]:9: error: 'break' outside loop
# CHECK-NEXT:         break
# CHECK-NEXT:         ^~~~~
