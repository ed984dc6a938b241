# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f():
    yield from g()
# CHECK:      {{.*}}unsupported-yield-from.py:[[@LINE-1]]:5: error: generators ('yield') are not supported by agc
# CHECK-NEXT:     yield from g()
# CHECK-NEXT:     ^~~~~~~~~~~~~~
