# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# The axis of tf.expand_dims types the result: a tensor axis is refused, located (its
# value was once read as 0, and the new dimension put first).
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def f(x):
    return tf.expand_dims(x, tf.constant(1))
# CHECK:      {{.*}}expand-dims-tensor-axis.py:[[@LINE-1]]:12: error: tf.expand_dims(): the axis must be a Python int for agc, not an int32 tensor of shape ()
# CHECK-NEXT:     return tf.expand_dims(x, tf.constant(1))
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
