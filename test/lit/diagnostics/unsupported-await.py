# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    def f():
        await g()
    f()
# CHECK:      {{.*}}unsupported-await.py:[[@LINE-2]]:9: error: 'await' expressions are not supported by agc
# CHECK-NEXT:         await g()
# CHECK-NEXT:         ^~~~~~~~~
