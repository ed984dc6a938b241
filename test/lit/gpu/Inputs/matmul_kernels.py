import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None, None], tf.float32)])
def dense(x, w):
    """A thread per result element, its sum over k in a register (stored once)."""
    return tf.matmul(x, w)


@tf.function(input_signature=[tf.TensorSpec([4, 16, 8], tf.int32)])
def middle_sums(t):
    """A reduction along the middle axis: a thread per output, its sum in a register."""
    return tf.reduce_sum(t, axis=1)
