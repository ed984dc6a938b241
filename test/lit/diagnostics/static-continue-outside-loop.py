# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
continue
# CHECK:      {{.*}}static-continue-outside-loop.py:[[@LINE-1]]:1: error: 'continue' not properly in loop
# CHECK-NEXT: continue
# CHECK-NEXT: ^~~~~~~~
