"""Which loops AutoGraph stages and which it unrolls, after the guide's examples: a Python
range or a Python test is unrolled; a tf.range or a tensor test becomes tf.while_loop."""
import tensorflow as tf


@tf.function
def for_in_range():
    x = 0
    for i in range(5):
        x += i
    return x


@tf.function
def for_in_tfrange():
    x = tf.constant(0, dtype=tf.int32)
    for i in tf.range(5):
        x += i
    return x


@tf.function
def while_py_cond():
    x = 5
    while x > 0:
        x -= 1
    return x


@tf.function
def while_tf_cond():
    x = tf.constant(5)
    while x > 0:
        x -= 1
    return x


@tf.function
def while_tf_true_tf_break(x):
    while tf.constant(True):
        if tf.equal(x, 0):
            break
        x -= 1
    return x


@tf.function
def tf_for_tf_break():
    x = 0
    for i in tf.range(5):
        if tf.equal(i, 3):
            break
        x += i
    return x
