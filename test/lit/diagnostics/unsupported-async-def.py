# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    async def f():
        pass
    f()
# CHECK:      {{.*}}unsupported-async-def.py:[[@LINE-3]]:5: error: async functions are not supported by agc
# CHECK-NEXT:     async def f():
# CHECK-NEXT:     ^~~~~~~~~~~~~~
