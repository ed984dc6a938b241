# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
s = {1, 2, 3}
# CHECK:      {{.*}}unsupported-set-display.py:[[@LINE-1]]:5: error: set displays are not supported by agc
# CHECK-NEXT: s = {1, 2, 3}
# CHECK-NEXT:     ^~~~~~~~~
