import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def total(x):
    return tf.reduce_sum(x)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def row_sums(x):
    return tf.reduce_sum(x, axis=1)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def biggest(x):
    return tf.reduce_max(x)
