"""Functions whose results could be written over their inputs, for e2e/read-only.test."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def scaled(x):
    return x * 2.0 + 1.0


@tf.function(input_signature=[tf.TensorSpec([1000], tf.float32)])
def scaled_static(x):
    # The argument's only use is the elementwise op: the result could take its buffer.
    return x * 2.0 + 1.0


@tf.function(input_signature=[tf.TensorSpec([1000], tf.float32)])
def newton_sqrt(a):
    # Heron's square roots: the carried tensor starts as the argument.
    x = a
    i = tf.constant(0)
    while i < 40:
        x = (x + a / x) / 2.0
        i += 1
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def halve_n_times(x, n):
    for _ in tf.range(n):
        x = x * 0.5
    return x
