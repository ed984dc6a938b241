# RUN: %expect_exit 1 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
async def f():
    pass
# CHECK:      {{.*}}unsupported-async-def.py:[[@LINE-2]]:1: error: async functions are not supported by agc
# CHECK-NEXT: async def f():
# CHECK-NEXT: ^~~~~~~~~~~~~~
