"""Functions whose calls fail at run time after allocating (runtime-checks.test)."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def pick(x, i):
    y = tf.exp(x) + 1.0
    z = tf.concat([y, y], axis=0)
    return z[i] + y[0]


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32),
                              tf.TensorSpec(shape=[None], dtype=tf.int32)])
def divide(a, b):
    s = a * 2
    return s // b, s % b


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def grow(n):
    ta = tf.TensorArray(tf.float32, size=4)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32))
    return ta.stack()
