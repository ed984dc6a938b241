# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f():
    await g()
# CHECK:      {{.*}}unsupported-await.py:[[@LINE-1]]:5: error: 'await' expressions are not supported by agc
# CHECK-NEXT:     await g()
# CHECK-NEXT:     ^~~~~~~~~
