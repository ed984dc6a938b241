"""Functions with and without floating-point arithmetic, for e2e/float-mode.test."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def integers_only(a):
    return a * 3 + 1


@tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
def integer_loop(x):
    total = tf.constant(0, tf.int64)
    for v in x:
        total += v % 7
    return total


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def scalar_float(x):
    return x * 0.5


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def floats_inside(i):
    # Integers in and out; a float sum of them in between.
    return tf.cast(tf.reduce_sum(tf.cast(i, tf.float32) * 0.25), tf.int32)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def floats_in_parallel_work(x):
    # The float work is in an OpenMP region's outlined body, reached through libomp.
    return tf.reduce_sum(tf.sqrt(x))
