"""The guide's buggy_* examples, refused at compile time as TensorFlow refuses them while
tracing; buggy_loop_var_uninitialized TensorFlow 2.21 (and agc) accept, checked when run."""
import tensorflow as tf


@tf.function
def buggy_while_py_true_tf_break(x):
    while True:
        if tf.equal(x, 0):
            break
        x -= 1
    return x


@tf.function
def buggy_py_for_tf_break():
    x = 0
    for i in range(5):
        if tf.equal(i, 3):
            break
        x += i
    return x


@tf.function
def buggy_loop_var_uninitialized():
    for i in tf.range(3):
        x = i
    return x


@tf.function
def buggy_loop_type_changes():
    x = tf.constant(0, dtype=tf.float32)
    for i in tf.range(3):
        x = i
    return x


@tf.function
def buggy_concat():
    x = tf.ones([0, 10])
    for i in tf.range(5):
        x = tf.concat([x, tf.ones([1, 10])], axis=0)
    return x
