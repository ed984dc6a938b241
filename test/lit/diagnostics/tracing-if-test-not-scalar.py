# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[3], dtype=tf.float32)])
def f(x):
    if x > 0.0:
        x = -x
    return x
# CHECK:      {{.*}}tracing-if-test-not-scalar.py:[[@LINE-3]]:8: error: the test of this if is a bool tensor of shape (3,); a staged if needs a single value (shape ())
# CHECK-NEXT:     if x > 0.0:
# CHECK-NEXT:        ^~~~~~~
# CHECK-NEXT: {{.*}}tracing-if-test-not-scalar.py:[[@LINE-6]]:8: note: reduce it, e.g. with tf.reduce_all or tf.reduce_any
# CHECK-NEXT:     if x > 0.0:
# CHECK-NEXT:        ^~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
