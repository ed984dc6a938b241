# A Python number (or list) first in a TensorFlow function converts to its own dtype
# before TensorFlow looks at the tensor after it: tf.maximum(0, x) of a float32 x is
# TensorFlow's TypeError (agc converted the 0 to float32 and accepted it). The note says
# the ways out; the operator converts the number to the tensor's dtype.
# RUN: %expect_exit 1 %agc compile %s -o %t.o 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[None], dtype=tf.float64)])
def f(x, y):
    a = tf.maximum(0.0, x) + tf.maximum(x, 0) + (0 + x)
    b = tf.maximum(0, x)
# CHECK:      {{.*}}python-number-first.py:[[@LINE-1]]:9: error: tf.maximum(): x, the Python int 0, becomes an int32 tensor before y is looked at, and y is a float32 tensor of shape (None,): TensorFlow refuses the mismatch (TypeError)
# CHECK-NEXT:     b = tf.maximum(0, x)
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}python-number-first.py:[[@LINE-4]]:9: note: give x y's dtype (tf.constant(x, tf.float32)), pass the tensor first, or use the operator, which converts the number to the tensor's dtype
    return a, b


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float64)])
def g(y):
    return tf.math.truncatemod(7.5, y)
# CHECK:      {{.*}}python-number-first.py:[[@LINE-1]]:12: error: tf.math.truncatemod(): x, the Python float 7.5, becomes a float32 tensor before y is looked at, and y is a float64 tensor of shape (None,): TensorFlow refuses the mismatch (TypeError)
