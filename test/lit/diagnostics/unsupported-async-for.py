# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    def f():
        async for x in y:
            pass
    f()
# CHECK:      {{.*}}unsupported-async-for.py:[[@LINE-3]]:9: error: 'async for' loops are not supported by agc
# CHECK-NEXT:         async for x in y:
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~~
