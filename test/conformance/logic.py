"""Logical expressions and conditional expressions, staged and static."""
import tensorflow as tf


@tf.function
def in_range(x):
    return x > 0 and x < 10


@tf.function
def outside(x):
    return x < 0 or x > 10


@tf.function
def negate(b):
    return not b


@tf.function
def ternary(x):
    return x * 2 if x > 0 else x * -3


@tf.function
def ternary_static(x, big=False):
    return x * 100 if big else x


@tf.function
def chained_and(x, y, z):
    return x > 0 and y > 0 and z > 0


@tf.function
def mixed_python_and(x, flag=True):
    return flag and x > 3


@tf.function
def logical_ops(a, b):
    return tf.logical_and(a, b), tf.logical_or(a, b), tf.logical_not(a)


@tf.function
def if_with_and(x, y):
    if x > 0 and y > 0:
        r = x + y
    else:
        r = x - y
    return r


@tf.function
def if_with_not(x):
    if not x > 5:
        x = x + 100
    return x


@tf.function
def nested_ternary(x):
    return 1 if x > 10 else (2 if x > 0 else 3)


@tf.function
def where_select(c, x):
    return tf.where(c, x, -x)


@tf.function
def chained_compare(x):
    return 0 < x < 5


@tf.function(input_signature=[tf.TensorSpec([None], tf.bool), tf.TensorSpec([None], tf.bool)])
def bool_tensor_operators(a, b):
    # A bool tensor's &, |, ^ and ~ are tf.logical_and, logical_or, logical_xor and
    # logical_not (Tensor.__and__ and the others dispatch on the dtype); with a Python
    # bool and in augmented assignments too.
    c = a
    c |= b
    d = b
    d &= ~a
    return a | b, a & b, a ^ b, ~a, c, d, a & True, False | b, a ^ (b | a)
