# tf.tensor_scatter_nd_max of a bool tensor: TensorFlow has no kernel for it; agc refuses
# it, located, while compiling.
# RUN: %expect_exit 1 %agc compile %s -o %t.o 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([4], tf.float32), tf.TensorSpec([None, 1], tf.int32)])
def flags(t, indices):
    return tf.tensor_scatter_nd_max(t > 0, indices, tf.ones(tf.shape(indices)[:1], tf.bool))
# CHECK:      {{.*}}scatter-dtypes.py:[[@LINE-1]]:12: error: tf.tensor_scatter_nd_max(): 'tensor' must be a number tensor here, not a bool tensor of shape (4,)
# CHECK-NEXT:     return tf.tensor_scatter_nd_max(t > 0, indices, tf.ones(tf.shape(indices)[:1], tf.bool))
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
