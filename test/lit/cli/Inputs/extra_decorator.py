import functools

import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
@functools.lru_cache
def cached(x):
    y = x * 2.0
    return y


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def plain(x):
    return x + 1.0
