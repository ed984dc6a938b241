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
