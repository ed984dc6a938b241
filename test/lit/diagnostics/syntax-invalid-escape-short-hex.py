# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = '\x4'
# CHECK:      {{.*}}syntax-invalid-escape-short-hex.py:[[@LINE-1]]:6: error: invalid escape sequence in string literal
# CHECK-NEXT: x = '\x4'
# CHECK-NEXT:      ^~
