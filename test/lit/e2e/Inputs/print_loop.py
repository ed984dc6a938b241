import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def count_and_print(n):
    """tf.print at every step of a long staged loop, as a progress log would be."""
    total = tf.constant(0)
    for i in tf.range(n):
        tf.print("step", i)
        total += i
    return total
