# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
def f():
    async for x in y:
        pass
# CHECK:      {{.*}}unsupported-async-for.py:[[@LINE-2]]:5: error: 'async for' loops are not supported by agc
# CHECK-NEXT:     async for x in y:
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~
