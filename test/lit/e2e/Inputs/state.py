"""Module state across calls inside one compiled function: find_next_odd twice turns 5
into 7, then 9 (the guide's automatic control dependencies example, observed)."""
import tensorflow as tf

v = tf.Variable(5)


@tf.function
def find_next_odd():
    v.assign(v + 1)
    if v % 2 == 0:
        v.assign(v + 1)


@tf.function
def next_odd_twice():
    find_next_odd()
    first = v.read_value()
    find_next_odd()
    return first, v.read_value()
