# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# The note that suggests v.set_shape(...) is not checked: set_shape cannot make a
# growing tensor loop-invariant (TensorFlow refuses that too).
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    v = tf.zeros([2])
    while n > 0:
        v = tf.concat([v, v], axis=0)
        n -= 1
    return v
# CHECK:      {{.*}}tracing-loop-shape-grows-while.py:[[@LINE-4]]:5: error: 'v' has shape (2,) before the loop, but shape (4,) after one iteration. Use tf.autograph.experimental.set_loop_options to set shape invariants.
# CHECK-NEXT:     while n > 0:
# CHECK-NEXT:     ^~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-shape-grows-while.py:[[@LINE-6]]:9: note: 'v' gets shape (4,) here
# CHECK-NEXT:         v = tf.concat([v, v], axis=0)
# CHECK-NEXT:         ^
# CHECK-NOT:  {{.*}}error:{{.*}}
