# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
nonlocal x
# CHECK:      {{.*}}static-nonlocal-at-module-level.py:[[@LINE-1]]:1: error: nonlocal declaration not allowed at module level
# CHECK-NEXT: nonlocal x
# CHECK-NEXT: ^~~~~~~~~~
