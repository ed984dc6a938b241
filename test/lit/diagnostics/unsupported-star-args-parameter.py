# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f(*args):
    pass
# CHECK:      {{.*}}unsupported-star-args-parameter.py:[[@LINE-2]]:7: error: variadic parameters ('*args') are not supported by agc
# CHECK-NEXT: def f(*args):
# CHECK-NEXT:       ^~~~~
