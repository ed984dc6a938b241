# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = 1
break
# CHECK:      {{.*}}static-break-outside-loop.py:[[@LINE-1]]:1: error: 'break' outside loop
# CHECK-NEXT: break
# CHECK-NEXT: ^~~~~
