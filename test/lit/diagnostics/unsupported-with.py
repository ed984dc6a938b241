# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
with open("f") as f:
    pass
# CHECK:      {{.*}}unsupported-with.py:[[@LINE-2]]:1: error: 'with' statements are not supported by agc
# CHECK-NEXT: with open("f") as f:
# CHECK-NEXT: ^~~~~~~~~~~~~~~~~~~~
