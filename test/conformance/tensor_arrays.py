"""tf.TensorArray: write, read, stack, size, dynamic size, in staged loops."""
import tensorflow as tf


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.int32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack()


@tf.function
def squares_static():
    ta = tf.TensorArray(tf.float32, size=5)
    for i in tf.range(5):
        ta = ta.write(i, tf.cast(i, tf.float32) * 0.5)
    return ta.stack(), ta.size()


@tf.function
def dynamic_growth(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32))
    return ta.stack()


@tf.function
def read_back(x):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, x)
    ta = ta.write(1, x * 2.0)
    ta = ta.write(2, x * 3.0)
    return ta.read(1) + ta.read(2)


@tf.function
def running_sums(v):
    n = tf.shape(v)[0]
    ta = tf.TensorArray(tf.float32, size=n)
    s = tf.constant(0.0)
    for i in tf.range(n):
        s += v[i]
        ta = ta.write(i, s)
    return ta.stack()


@tf.function
def rows_of_matrix(m):
    ta = tf.TensorArray(tf.float32, size=3)
    for i in tf.range(3):
        ta = ta.write(i, m[i] * tf.cast(i + 1, tf.float32))
    return ta.stack()


@tf.function
def unstack_and_sum(m):
    ta = tf.TensorArray(tf.int32, size=3)
    ta = ta.unstack(m)
    return ta.read(0) + ta.read(2)
