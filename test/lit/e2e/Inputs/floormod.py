import tensorflow as tf


@tf.function
def floormod(x, y):
    return tf.math.floormod(x, y)
