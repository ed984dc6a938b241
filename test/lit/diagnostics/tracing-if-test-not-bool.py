# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    if x:
        x = x - 1
    return x
# CHECK:      {{.*}}tracing-if-test-not-bool.py:[[@LINE-3]]:8: error: the test of this if is an int32 tensor of shape (); a staged if needs a bool tensor
# CHECK-NEXT:     if x:
# CHECK-NEXT:        ^
# CHECK-NEXT: {{.*}}tracing-if-test-not-bool.py:[[@LINE-6]]:8: note: compare it, e.g. `x > 0`, or cast it with tf.cast(..., tf.bool)
# CHECK-NEXT:     if x:
# CHECK-NEXT:        ^
# CHECK-NOT:  {{.*}}error:{{.*}}
