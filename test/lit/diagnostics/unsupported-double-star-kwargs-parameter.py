# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f(**kwargs):
    pass
# CHECK:      {{.*}}unsupported-double-star-kwargs-parameter.py:[[@LINE-2]]:7: error: keyword variadic parameters ('**kwargs') are not supported by agc
# CHECK-NEXT: def f(**kwargs):
# CHECK-NEXT:       ^~~~~~~~
