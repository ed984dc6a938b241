import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def complement(x):
    return tf.math.erfc(x)
