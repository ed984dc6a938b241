# The example project's staged loop: a tf.while_loop over a tensor, whose body calls
# a helper from another module (helpers.py).
import tensorflow as tf

from helpers import damp


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def settle(x):
    steps = 0
    while tf.reduce_sum(tf.abs(x)) > 1.0:
        x = damp(x, 0.5)
        steps += 1
    return x, steps
