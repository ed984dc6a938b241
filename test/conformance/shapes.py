"""dtype and shape behaviour in loops: set_shape, shape_invariants, dynamic dimensions."""
import numpy as np
import tensorflow as tf


@tf.function
def grow_with_invariant(n):
    x = tf.zeros([0])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, tf.ones([1])], axis=0)
    return x


@tf.function
def set_shape_keeps(n):
    x = tf.zeros([4])
    for i in tf.range(n):
        x = tf.concat([x[1:], tf.reshape(tf.cast(i, tf.float32), [1])], axis=0)
        x.set_shape([4])
    return x


@tf.function
def dynamic_sum(x):
    return tf.reduce_sum(x), tf.shape(x), tf.size(x)


@tf.function
def dynamic_rows(m):
    return tf.reduce_mean(m, axis=1), tf.reduce_max(m, axis=0)


@tf.function
def static_shape_python(m):
    rows = m.shape[0]
    cols = m.shape[1]
    return tf.zeros([rows * cols]) + rows


@tf.function
def reshape_dynamic(v):
    return tf.reshape(v, [-1, 2])


@tf.function
def broadcast_shapes(a, b):
    return a + b, a * b


@tf.function
def expand_and_squeeze(v):
    e = tf.expand_dims(v, 0)
    s = tf.squeeze(e, axis=0)
    return e, s


@tf.function
def loop_keeps_shape(x, n):
    for i in tf.range(n):
        x = tf.tanh(x) * 2.0
    return x


@tf.function
def transpose_dynamic(m):
    return tf.transpose(m)


@tf.function
def slice_dynamic(v, k):
    return v[:k], v[k:]


@tf.function
def unknown_rank_invariant(x):
    while tf.reduce_sum(x) < 10.0:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape(None))])
        x = tf.concat([x, x], 0)
    return x


@tf.function
def concat_with_empty_part(x):
    empty = tf.zeros([0, 2])
    return tf.concat([x, empty], 0), tf.concat([empty, x, empty], axis=0)


@tf.function
def new_axes(x, y):
    # Pairwise differences as TensorFlow's guides write them: tf.newaxis (None by value,
    # not by spelling) adds a dimension wherever it stands in the index.
    pairwise = x[:, tf.newaxis] - y[tf.newaxis, :]
    grid = x[..., np.newaxis, tf.newaxis] * 2.0
    axis = None
    return pairwise, grid, x[axis, 1:], tf.shape(x[tf.newaxis, ..., tf.newaxis])


@tf.function
def negative_steps(x, k):
    # Slices that walk backwards, as Python's: defaults from the end, bounds clamped, a
    # tensor bound; on a vector whose length the cases vary, and a static matrix.
    m = tf.reshape(tf.range(12), [3, 4])
    return (x[::-1], x[5:1:-2], x[-2::-3], x[:-100:-1], x[1:5:-1], x[k::-1], x[:k:-2],
            m[::-1, ::-2], m[1, ::-1], m[..., 2::-1])


@tf.function
def python_sequence_steps():
    # Python lists and strings sliced with steps, while tracing.
    l = [1, 2, 3, 4, 5]
    s = "abcdef"
    return (tf.constant(l[::-1]), tf.constant(l[::2]), tf.constant(l[-1:0:-2]),
            tf.constant(s[::-1]), tf.constant(l[10:-10:-3]), tf.constant(s[1::4]))


@tf.function(input_signature=[tf.TensorSpec([None, 3, 4], tf.float32)])
def tensor_shape_methods(x):
    # x.shape is a tf.TensorShape: rank, ndims, as_list(), num_elements(),
    # is_fully_defined(), its slices TensorShapes too, equal to tuples.
    s = x.shape
    tail = x.shape[1:].as_list()
    n = x.shape[1:].num_elements()
    return (tf.reshape(x, [-1, n]), tf.constant(tail), s.rank, s.ndims, s.is_fully_defined(),
            s[1:].is_fully_defined(), x.shape[1:] == (3, 4), x.shape.num_elements() is None,
            tf.TensorShape([2, None]).as_list()[0], x.get_shape().rank)


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def split_rest_dynamic(x):
    # tf.split with a size of -1 over a dimension known only at run time: that part takes
    # what the others leave; sizes beyond the dimension are TensorFlow's error.
    head, rest = tf.split(x, num_or_size_splits=[1, -1])
    first, middle, last = tf.split(x, [1, -1, 2], axis=0)
    return head, rest, first, middle, last
