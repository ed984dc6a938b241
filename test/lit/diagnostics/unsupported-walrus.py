# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
if (n := 10) > 5:
    pass
# CHECK:      {{.*}}unsupported-walrus.py:[[@LINE-2]]:5: error: assignment expressions (':=') are not supported by agc
# CHECK-NEXT: if (n := 10) > 5:
# CHECK-NEXT:     ^~~~~~~
