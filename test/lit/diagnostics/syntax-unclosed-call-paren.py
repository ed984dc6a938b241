# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = f(1,
# CHECK:      {{.*}}syntax-unclosed-call-paren.py:[[@LINE-1]]:6: error: invalid syntax: '(' was never closed
# CHECK-NEXT: x = f(1,
# CHECK-NEXT:      ^
