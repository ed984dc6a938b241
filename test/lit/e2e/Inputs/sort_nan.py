import tensorflow as tf


@tf.function
def sorted_values(x):
    return tf.sort(x)
