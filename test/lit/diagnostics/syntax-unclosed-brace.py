# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = {1: 2
# CHECK:      {{.*}}syntax-unclosed-brace.py:[[@LINE-1]]:5: error: invalid syntax: '{' was never closed
# CHECK-NEXT: x = {1: 2
# CHECK-NEXT:     ^
