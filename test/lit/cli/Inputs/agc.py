import tensorflow as tf


@tf.function
def tensor_free():
    return tf.constant(1)
