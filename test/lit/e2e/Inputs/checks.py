"""Run-time checks: a dynamic dimension that does not broadcast, a failed assertion."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def add(x, y):
    return x + y


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def doubled_positive(x):
    tf.debugging.assert_positive(x, message="x must be positive")
    return x * 2


@tf.function(input_signature=[tf.TensorSpec([2, 2], tf.float32)])
def trace(m):
    return m[0, 0] + m[1, 1]


@tf.function
def total(x):
    return tf.reduce_sum(x), tf.shape(x)


@tf.function
def labelled(x, label):
    tf.print(label, x)
    return x
