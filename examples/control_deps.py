"""Automatic control dependencies: reads and writes of a module-level tf.Variable happen
in program order, so find_next_odd() turns 5 into 7, and double() works on any dtype."""
import tensorflow as tf

v = tf.Variable(5)


@tf.function
def find_next_odd():
    v.assign(v + 1)  # the second assign depends on this one
    if v % 2 == 0:
        v.assign(v + 1)


@tf.function
def my_function(x):
    if tf.reduce_sum(x) <= 1:
        return x * x
    else:
        return x - 1


@tf.function
def double(a):
    return a + a


a = tf.Variable(1.0)
b = tf.Variable(2.0)


@tf.function
def assign_then_add(x, y):
    a.assign(y * b)  # a = 4.0
    b.assign_add(x * a)  # b = 2.0 + 4.0: reads the a just written
    return a + b  # assign_then_add(1.0, 2.0) == 10.0
