# RUN: %expect_exit 0 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# A shape invariant (None, 10), set as the first statement of the body, lets x grow
# in a staged loop (tracing-loop-shape-grows-for.py is the same loop without it).
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.zeros([0, 10])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(
            shape_invariants=[(x, tf.TensorShape([None, 10]))])
        x = tf.concat([x, tf.ones([1, 10])], axis=0)
    return x
# CHECK:        returns: float32[?,10]
# CHECK:        for @{{.*}}tracing-loop-shape-invariants-accepted.py:[[@LINE-6]]:5: staged: it iterates over an int32 tensor of shape (None,)
# CHECK:          types: x: float32[?,10]
# CHECK-NOT:  {{.*}}error:{{.*}}
