# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = 012
# CHECK:      {{.*}}syntax-leading-zero-integer.py:[[@LINE-1]]:5: error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers
# CHECK-NEXT: x = 012
# CHECK-NEXT:     ^~~
