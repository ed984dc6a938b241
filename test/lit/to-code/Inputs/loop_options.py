"""Loops with set_loop_options: a cap on the iterations, and a shape that grows."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def capped_sum(n):
    s = 0
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(maximum_iterations=3)
        s += i
        i += 1
    return s


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def grow_rows(n):
    x = tf.zeros([0, 2])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None, 2]))])
        x = tf.concat([x, tf.ones([1, 2]) * tf.cast(i, tf.float32)], axis=0)
    return x
