# RUN: %expect_exit 0 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.zeros([0, 10])
    while n > 0:
        tf.autograph.experimental.set_loop_options(
            shape_invariants=[(x, tf.TensorShape([None, 10]))])
        x = tf.concat([x, tf.ones([1, 10])], axis=0)
        n -= 1
    return x
# CHECK:        returns: float32[?,10]
# CHECK:        while @{{.*}}tracing-loop-shape-invariants-accepted-while.py:[[@LINE-7]]:5: staged: the test is a bool tensor
# CHECK:          types: n: int32[], x: float32[?,10]
# CHECK-NOT:  {{.*}}error:{{.*}}
