# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = b"abc"
# CHECK:      {{.*}}unsupported-bytes-literal.py:[[@LINE-1]]:5: error: bytes literals are not supported by agc
# CHECK-NEXT: x = b"abc"
# CHECK-NEXT:     ^~~~~~
