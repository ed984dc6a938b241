import tensorflow as tf


@tf.function
def middle(s):
    return tf.strings.substr(s, 5, 2)


@tf.function
def parsed(s):
    return tf.strings.to_number(s) + 1.0


@tf.function
def parsed_int(s):
    return tf.strings.to_number(s, out_type=tf.int32) * 2
