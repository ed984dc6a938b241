# The example project's state: a tf.Variable that every call adds to, kept between
# calls in the object (counter_init() resets it).
import tensorflow as tf

total = tf.Variable(0.0)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def accumulate(x):
    total.assign_add(tf.reduce_sum(x))
    return total.read_value()
