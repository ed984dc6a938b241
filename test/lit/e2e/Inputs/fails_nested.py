import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.constant(0.0)
    if n > 0:
        i = 0
        while i < n:
            x = x + tf.random.uniform([])
            i += 1
    return x
