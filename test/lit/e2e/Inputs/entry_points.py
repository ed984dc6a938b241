"""Entry points with and without a fast path: static and dynamic shapes, a scalar, no
inputs, an input that fails a check inside the call, two results, a string."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([5], tf.float32)])
def scale(x):
    return x * 2.0


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64), tf.TensorSpec([None], tf.float64)])
def shift_rows(m, v):
    return m + v


@tf.function(input_signature=[tf.TensorSpec([], tf.int64)])
def square(n):
    return n * n


@tf.function(input_signature=[])
def three():
    return tf.constant([1, 2, 3], dtype=tf.int16)


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)])
def pick(x, i):
    return tf.gather(x, i)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def sum_and_size(x):
    return tf.reduce_sum(x), tf.size(x)


@tf.function(input_signature=[tf.TensorSpec([], tf.string)])
def loud(word):
    return tf.strings.upper(word)
