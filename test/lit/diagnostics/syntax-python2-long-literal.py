# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
x = 10L
# CHECK:      {{.*}}syntax-python2-long-literal.py:[[@LINE-1]]:5: error: invalid syntax: Python 2 long literals ('10L') are not Python 3
# CHECK-NEXT: x = 10L
# CHECK-NEXT:     ^~~
