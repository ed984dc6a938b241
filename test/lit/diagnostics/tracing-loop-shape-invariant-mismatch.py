# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.zeros([0, 10])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(
            shape_invariants=[(x, tf.TensorShape([1, 10]))])
        x = tf.concat([x, tf.ones([1, 10])], axis=0)
    return x
# CHECK:      {{.*}}tracing-loop-shape-invariant-mismatch.py:[[@LINE-5]]:5: error: 'x' has shape (0, 10) before the loop, which its shape invariant (1, 10) does not admit
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
