# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f(a, /, b):
    pass
# CHECK:      {{.*}}unsupported-positional-only-parameter.py:[[@LINE-2]]:10: error: positional-only parameters ('/') are not supported by agc
# CHECK-NEXT: def f(a, /, b):
# CHECK-NEXT:          ^
