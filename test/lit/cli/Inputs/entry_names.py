"""f's entry point with arrays is entry_names_f_v, which f_v's entry point would be too."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def f(a):
    return a + a


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def f_v(a):
    return a * 3
