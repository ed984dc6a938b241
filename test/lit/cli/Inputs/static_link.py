import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.string)])
def shout(word):
    return tf.strings.upper(word) + "!"
