# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = rb"abc"
# CHECK:      {{.*}}unsupported-raw-bytes-literal.py:[[@LINE-1]]:5: error: bytes literals are not supported by agc
# CHECK-NEXT: x = rb"abc"
# CHECK-NEXT:     ^~~~~~~
