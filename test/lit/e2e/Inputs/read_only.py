"""Functions whose results could be written over their inputs, for e2e/read-only.test."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def scaled(x):
    return x * 2.0 + 1.0


@tf.function(input_signature=[tf.TensorSpec([1000], tf.float32)])
def newton_sqrt(a):
    x = a
    for _ in tf.range(50):
        x = 0.5 * (x + a / x)
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def halve_n_times(x, n):
    for _ in tf.range(n):
        x = x * 0.5
    return x
