"""The op list of the dialect issue, run and compared (not only lowered)."""
import tensorflow as tf


@tf.function
def arithmetic(a, b):
    return a + b, a - b, a * b, a / b, a // b, a % b


@tf.function
def arithmetic_scalars(a):
    return a + 1, 2 - a, a * 3, a / 4, a // 3, a % 3, a ** 2, -a


@tf.function
def comparisons(a, b):
    return (a < b, a <= b, a > b, a >= b, tf.equal(a, b), tf.not_equal(a, b))


@tf.function
def minmax(a, b):
    return tf.maximum(a, b), tf.minimum(a, b), tf.abs(a), tf.square(b)


@tf.function
def float_math(x):
    return (tf.exp(x), tf.math.log(x + 2.0), tf.sqrt(x + 2.0), tf.tanh(x), tf.sigmoid(x),
            tf.sin(x), tf.cos(x), tf.nn.relu(x), tf.pow(x + 2.0, 1.5))


@tf.function
def floor_ops(a, b):
    return tf.math.floormod(a, b), tf.math.floordiv(a, b)


@tf.function
def clip(x):
    return tf.clip_by_value(x, -1.0, 1.0)


@tf.function
def reductions(m):
    return (tf.reduce_sum(m), tf.reduce_mean(m, axis=0), tf.reduce_max(m, axis=1),
            tf.reduce_min(m, axis=[0, 1]), tf.reduce_prod(m, axis=1, keepdims=True))


@tf.function
def bool_reductions(m):
    return tf.reduce_any(m, axis=1), tf.reduce_all(m, axis=0), tf.reduce_all(m)


@tf.function
def arg_ops(m):
    return tf.argmax(m, axis=1), tf.argmin(m, axis=0), tf.argmax(m)


@tf.function
def matmul_ops(a, b):
    return tf.matmul(a, b), tf.matmul(a, a, transpose_b=True)


@tf.function
def shape_ops(m):
    return (tf.transpose(m), tf.reshape(m, [-1]), tf.concat([m, m], axis=1),
            tf.stack([m, m]), tf.shape(m), tf.size(m))


@tf.function
def indexing(m, i):
    return m[i], m[-1], m[1:], m[:, 0], m[0, 1], m[:, i]


@tf.function
def creation(n):
    return (tf.zeros([2, 3]), tf.ones([3], dtype=tf.int32), tf.fill([2], 7.5),
            tf.eye(3), tf.range(n), tf.range(1.0, 2.0, 0.25), tf.constant([[1, 2]], dtype=tf.int64))


@tf.function
def like_ops(x):
    return tf.zeros_like(x), tf.ones_like(x)


@tf.function
def casts(x):
    return (tf.cast(x, tf.int32), tf.cast(x, tf.bool), tf.cast(x, tf.float64),
            tf.cast(tf.cast(x, tf.int64), tf.float32))


@tf.function
def where_three(c, x, y):
    return tf.where(c, x, y)


@tf.function
def int_division_signs(a, b):
    return a // b, a % b, a / b


@tf.function
def softmax_axis(x):
    return tf.nn.softmax(x, axis=0)


@tf.function
def float_floor_mod(a, b):
    return a // b, a % b


@tf.function
def logical(a, b):
    return tf.logical_and(a, b), tf.logical_or(a, b), tf.logical_not(b)


@tf.function
def shape_attribute(m):
    return tf.zeros([m.shape[0], 2]), m.shape[1]


@tf.function
def inverse_trig(x):
    return tf.math.asin(x), tf.math.acos(x), tf.math.atan(x * 10.0)


@tf.function
def hyperbolic(x):
    return tf.math.sinh(x), tf.math.cosh(x), tf.math.asinh(x), tf.math.acosh(x + 2.0), tf.math.atanh(x * 0.5)


@tf.function
def erfc_tail(x):
    return tf.math.erfc(x)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def reductions_of_filled(n):
    # Reductions of constant-filled tensors, empty for n = 0: all of nothing is True,
    # any of nothing False (their accumulator's init), whatever the fill. Once fused, a
    # fill made the payload ignore the accumulator and the init was dropped (an
    # uninitialized result for n = 0).
    return (tf.reduce_all(tf.fill([n], False)), tf.reduce_any(tf.fill([n], True)),
            tf.reduce_all(tf.fill([2, n], False), axis=1),
            tf.reduce_any(tf.fill([n, 3], True), axis=0),
            tf.reduce_max(tf.fill([n], 3)), tf.reduce_min(tf.fill([n, 2], -1.5)))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def reductions_of_static_empty(x):
    # A reduction over a dimension of size 0 known while compiling: its init.
    return (tf.reduce_all(tf.zeros([3, 0], tf.bool), axis=1),
            tf.reduce_any(tf.ones([0, 2], tf.bool), axis=0),
            tf.reduce_all(tf.zeros([1, 4, 0, 2], tf.bool)) | (tf.size(x) > 5))
