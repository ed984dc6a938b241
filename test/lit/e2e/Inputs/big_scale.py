import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([1 << 20], tf.float32)])
def scale(x):
    # Its output (4 MiB) and its temporaries are large blocks of the runtime's allocator.
    y = x * 2.0 + 1.0
    return y * tf.reduce_sum(x)
