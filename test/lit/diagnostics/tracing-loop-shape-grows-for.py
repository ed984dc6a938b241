# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# The note that suggests x.set_shape(...) is not checked: set_shape cannot make a
# growing tensor loop-invariant (TensorFlow refuses that too).
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.zeros([0, 10])
    for i in tf.range(n):
        x = tf.concat([x, tf.ones([1, 10])], axis=0)
    return x
# CHECK:      {{.*}}tracing-loop-shape-grows-for.py:[[@LINE-3]]:5: error: 'x' has shape (0, 10) before the loop, but shape (1, 10) after one iteration. Use tf.autograph.experimental.set_loop_options to set shape invariants.
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-shape-grows-for.py:[[@LINE-5]]:9: note: 'x' gets shape (1, 10) here
# CHECK-NEXT:         x = tf.concat([x, tf.ones([1, 10])], axis=0)
# CHECK-NEXT:         ^
# CHECK-NOT:  {{.*}}error:{{.*}}
