# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
a, *b = c
# CHECK:      {{.*}}unsupported-starred-assignment-target.py:[[@LINE-1]]:4: error: starred targets ('*x') are not supported by agc
# CHECK-NEXT: a, *b = c
# CHECK-NEXT:    ^~
