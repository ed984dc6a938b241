# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.range(3)
    for i in tf.range(n):
        x = tf.range(i, i + 3)
    return x
# CHECK:      {{.*}}tracing-loop-shape-unknown-after.py:[[@LINE-3]]:5: error: 'x' has shape (3,) before the loop, but shape (None,) after one iteration. Use tf.autograph.experimental.set_loop_options to set shape invariants.
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-shape-unknown-after.py:[[@LINE-5]]:9: note: 'x' gets shape (None,) here
# CHECK-NEXT:         x = tf.range(i, i + 3)
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-loop-shape-unknown-after.py:[[@LINE-9]]:5: note: if it keeps its shape at run time, say so in the body with `x.set_shape([3])`
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
