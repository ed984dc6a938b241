"""The tanh loop from TensorFlow's tf.function guide: a while loop whose test is a tensor,
so AutoGraph stages it as tf.while_loop, printing the tensor at every step."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[5], dtype=tf.float32)])
def squash(x):
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x
