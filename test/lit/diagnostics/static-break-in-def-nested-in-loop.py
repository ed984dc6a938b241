# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
while x:
    def g():
        break
# CHECK:      {{.*}}static-break-in-def-nested-in-loop.py:[[@LINE-1]]:9: error: 'break' outside loop
# CHECK-NEXT:         break
# CHECK-NEXT:         ^~~~~
