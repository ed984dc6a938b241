"""Python parameters named like C keywords and like the entry point's own parameters."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                              tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def g(result, default, default_, status):
    return result + default + default_ + status
