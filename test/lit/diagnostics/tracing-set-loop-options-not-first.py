# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.zeros([0, 10])
    for i in tf.range(n):
        x = tf.concat([x, tf.ones([1, 10])], axis=0)
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None, 10]))])
    return x
# CHECK:      {{.*}}tracing-set-loop-options-not-first.py:[[@LINE-2]]:9: error: set_loop_options must be the first statement in the loop body
# CHECK:      {{.*}}tracing-set-loop-options-not-first.py:[[@LINE-4]]:9: note: move it before this statement
