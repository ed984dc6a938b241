# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x, n):
    return tf.maximum(x, n)
# CHECK:      {{.*}}tracing-dtype-mismatch-maximum.py:[[@LINE-1]]:12: error: tf.maximum() needs one dtype, got a float32 tensor of shape () and an int32 tensor of shape ()
# CHECK-NEXT:     return tf.maximum(x, n)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
