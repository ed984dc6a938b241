# RUN: %expect_exit 0 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# x.set_shape([3]) in the body gives the loop variable back its shape (3,), so the
# loop is staged (tracing-loop-shape-unknown-after.py is the same loop without it).
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.range(3)
    for i in tf.range(n):
        x = tf.range(i, i + 3)
        x.set_shape([3])
    return x
# CHECK:        returns: int32[3]
# CHECK:        for @{{.*}}tracing-loop-shape-set-shape-accepted.py:[[@LINE-5]]:5: staged: it iterates over an int32 tensor of shape (None,)
# CHECK:          types: x: int32[3]
# CHECK-NOT:  {{.*}}error:{{.*}}
