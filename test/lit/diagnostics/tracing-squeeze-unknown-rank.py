# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# tf.squeeze without axis= of a tensor with a dimension unknown while compiling: the
# result's rank would be known only at run time, which agc cannot compile; refused,
# located, with what to write instead. (It once kept such dimensions and squeezed only
# the known 1s; with axis= it once removed every 1 anyway.)
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None, 1], dtype=tf.float32)])
def f(x):
    return tf.squeeze(x)
# CHECK: {{.*}}.py:[[@LINE-1]]:12: error: tf.squeeze without axis= of a tensor of shape (None, 1): whether dimension 0 has size 1 is known only at run time, and so is the result's rank; name the dimensions with axis=
