"""Work large enough to run on several threads, for e2e/parallel.test."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def total(x):
    return tf.reduce_sum(x), tf.reduce_max(tf.sin(x))


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def softmax(m):
    return tf.nn.softmax(m)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None, None], tf.float32)])
def matmul(a, b):
    return tf.matmul(a, b)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int32)])
def gather_scaled(x, i):
    # The index check runs before the split work: a bad index is an error status.
    return tf.gather(x, i) * 2.0 + 1.0


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def scalar(x):
    # Nothing here is large: no parallel region.
    return x * 2.0 + 1.0
