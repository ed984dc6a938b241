"""tf.Variable: module-level state, read and written in program order."""
import tensorflow as tf

counter = tf.Variable(0)
total = tf.Variable(0.0)
vec = tf.Variable([1.0, 2.0, 3.0])
big = tf.Variable(tf.constant(10, dtype=tf.int64))


@tf.function
def bump():
    counter.assign_add(1)
    return counter.read_value()


@tf.function
def bump_twice():
    counter.assign_add(1)
    counter.assign_add(1)
    return counter + 0


@tf.function
def accumulate(x):
    total.assign_add(x)
    total.assign(total * 2.0)
    return total.read_value()


@tf.function
def read_write_order(x):
    before = total.read_value()
    total.assign(x)
    after = total.read_value()
    return before, after


@tf.function
def vector_update(x):
    vec.assign(vec * x)
    vec.assign_sub([1.0, 1.0, 1.0])
    return vec.read_value()


@tf.function
def staged_assign(x):
    if x > 0:
        counter.assign(x)
    else:
        counter.assign(-x)
    return counter.read_value()


@tf.function
def loop_assign(n):
    for i in tf.range(n):
        counter.assign_add(i)
    return counter.read_value()


@tf.function
def int64_state(x):
    big.assign(big * x)
    return big.read_value()
