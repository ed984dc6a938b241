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


# --- Elements whose shape is known only at run time -------------------------------------------

@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def dynamic_rows(m):
    # The element shape comes from the first write: rows of a [None, None] matrix.
    ta = tf.TensorArray(tf.float32, size=tf.shape(m)[0])
    for i in tf.range(tf.shape(m)[0]):
        ta = ta.write(i, m[i] * 2.0)
    return ta.stack()


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def dynamic_size_and_shape(x):
    # Neither the size nor the element shape is known: both grow with the writes.
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(3):
        ta = ta.write(i, x + i)
    return ta.stack(), ta.size()


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def partial_element_shape(x):
    ta = tf.TensorArray(tf.float32, size=2, element_shape=tf.TensorShape([None]))
    ta = ta.write(0, x)
    ta = ta.write(1, x * x)
    return ta.read(1), ta.stack()


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def element_shapes_differ(a, b):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, a)
    ta = ta.write(1, b)
    return ta.stack()


# --- gather, scatter, concat, split, element_shape ----------------------------------------------

@tf.function
def gather_and_concat(m):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.unstack(m)
    return ta.gather([2, 0]), ta.concat(), ta.gather(tf.constant([1]))


@tf.function
def scatter(values):
    ta = tf.TensorArray(tf.int32, size=4)
    ta = ta.scatter([3, 0], values)
    return ta.stack()


@tf.function
def split(x):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.split(x, [2, 2, 2])
    return ta.read(1), ta.size()


@tf.function
def element_shape_and_dtype(x):
    ta = tf.TensorArray(tf.float32, size=1, element_shape=[2])
    ta = ta.write(0, x)
    if ta.element_shape[0] == 2 and ta.dtype == tf.float32:
        return ta.stack()
    return ta.stack() * 0.0


@tf.function
def clear_after_read_ignored(x):
    # In TensorFlow 2 a TensorArray is a TensorList: a second read of an element works.
    ta = tf.TensorArray(tf.float32, size=1, clear_after_read=True)
    ta = ta.write(0, x)
    return ta.read(0) + ta.read(0)


@tf.function
def array_through_staged_if(x):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, x)
    if tf.reduce_sum(x) > 0:
        ta = ta.write(1, x * 2.0)
    else:
        ta = ta.write(1, -x)
    return ta.stack()


@tf.function
def array_through_tf_cond(x):
    ta = tf.TensorArray(tf.float32, size=1)
    ta = tf.cond(x[0] > 0, lambda: ta.write(0, x), lambda: ta.write(0, -x))
    return ta.stack()


@tf.function
def array_of_arrays(x):
    inner = tf.TensorArray(tf.float32, size=1)
    outer = tf.TensorArray(tf.float32, size=1)
    outer = outer.write(0, inner)
    return outer.stack()


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def stack_empty_of_unknown_shape(x, n):
    # No element, and a shape known only at run time: TensorFlow's error when it stacks.
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, x)
    return ta.stack()


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def unwritten_elements_are_zeros(x):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, x)
    return ta.stack(), ta.read(1)


@tf.function(input_signature=[tf.TensorSpec([3, 0], tf.float64), tf.TensorSpec([], tf.int32)])
def growing_array_of_empty_elements(x, n):
    # Elements with no data in an array that grows: each write only grows it (an
    # internal error before: a slice inserted at offset 0 of a dimension of size 0).
    ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, x * 2.0)
    return ta.stack(), ta.size()


@tf.function(input_signature=[tf.TensorSpec([0], tf.float64)])
def growing_array_never_written(x):
    ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True)
    for i in tf.range(0):
        ta = ta.write(i, x + 1.0)
    return ta.stack()
