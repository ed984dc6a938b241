# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
if 1 <> 2:
    pass
# CHECK:      {{.*}}syntax-python2-not-equal.py:[[@LINE-2]]:6: error: invalid syntax: '<>' is not a Python 3 comparison
# CHECK-NEXT: if 1 <> 2:
# CHECK-NEXT:      ^~
