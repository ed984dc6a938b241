import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def many_steps(x, n):
    """A staged loop that launches a kernel at every iteration, n of them."""
    for _ in tf.range(n):
        x = x * 0.5 + 1.0
    return x
