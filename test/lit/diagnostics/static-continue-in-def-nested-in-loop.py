# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
for i in range(3):
    def g():
        continue
# CHECK:      {{.*}}static-continue-in-def-nested-in-loop.py:[[@LINE-1]]:9: error: 'continue' not properly in loop
# CHECK-NEXT:         continue
# CHECK-NEXT:         ^~~~~~~~
