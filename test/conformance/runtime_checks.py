"""Run-time faults TensorFlow reports when the function is called (bad index, integer
division by zero, bad sizes, shapes that do not agree): agc must fail the call (exit 3),
never return garbage or crash; and the edge cases next to them must give TensorFlow's
values (MIN // -1 wraps, negative indices count from the end, empty ranges)."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def index_vector(x, i):
    return x[i]


@tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def index_rows(x, i):
    return x[i, 1:] * 2.0


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])
def python_index_past_end(x):
    return x[5]


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def tensor_array_write(n, size):
    ta = tf.TensorArray(tf.int32, size=size)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack()


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def tensor_array_read(i):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, 1.0)
    ta = ta.write(1, 2.0)
    ta = ta.write(2, 3.0)
    return ta.read(i)


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32),
                              tf.TensorSpec(shape=[None], dtype=tf.int32)])
def int_floordiv(a, b):
    return a // b


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int64),
                              tf.TensorSpec(shape=[None], dtype=tf.int64)])
def int_floormod(a, b):
    return a % b


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def int_divmod_in_loop(a, b):
    s = tf.constant(0)
    for i in tf.range(3):
        s += a // (b - i) + a % (b - i)
    return s


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def scalar_floor_divmod(a, b):
    # One value each (not a tensor's elements): a branch for both operands positive,
    # one for -1, the floor's correction otherwise.
    return a // b, a % b, tf.math.floordiv(b, a), tf.math.floormod(b, a)


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int64),
                              tf.TensorSpec(shape=[], dtype=tf.int64)])
def scalar_floor_divmod_64(a, b):
    return a // b, a % b


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def range_delta(n, d):
    return tf.range(0, n, d)


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.float32)])
def range_float(n, d):
    return tf.range(0.0, n, d)


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def zeros_tensor_size(n):
    return tf.zeros([n]), tf.ones([2, n]), tf.fill([n, 2], 7)


@tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32)])
def zeros_like_rows(x):
    acc = tf.zeros([tf.shape(x)[1]])
    for row in x:
        acc = acc + row
    return acc


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def reshape_rows(x, n):
    return tf.reshape(x, [n, -1])


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def reshape_fixed(x):
    return tf.reshape(x, [2, 3])


@tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32),
                              tf.TensorSpec(shape=[None, None], dtype=tf.float32)])
def matmul_dynamic(a, b):
    return tf.matmul(a, b)


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[None], dtype=tf.float32)])
def add_dynamic(a, b):
    return a + b


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32),
                              tf.TensorSpec(shape=[None], dtype=tf.int32)])
def int_pow(a, b):
    return a ** b


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def transpose_scalar(x):
    return tf.transpose(x) + 1.0


@tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.float32)])
def squeeze_rows(x):
    return tf.squeeze(x, axis=0) * 2.0


@tf.function(input_signature=[tf.TensorSpec(shape=[None, 1, 1], dtype=tf.float32)])
def squeeze_middle(x):
    return tf.squeeze(x, axis=[-2]), tf.expand_dims(tf.squeeze(x, 2), 0)


# A check guards the op it protects, and goes with it when nothing uses the op's result:
# TensorFlow prunes such an op, so its error never happens (the differential tester's
# first 5,000 programs met each of these).
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def unused_index(x, i):
    unused = x[i]
    return x * 2.0


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def unused_division(x, d):
    x %= x
    q = x // d
    return d + 1


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def unused_sizes(n):
    ones = tf.ones([n])
    r = tf.range(0, 10, n)
    return n * 2


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def unused_reshape_and_array(x, n):
    m = tf.reshape(x, [n, -1])
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(n, 1.0)
    return tf.reduce_sum(x)


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def division_in_loop_result_unused(n):
    v = n
    for i in tf.range(3):
        v = v // i
    return tf.zeros_like(v)


# ... and a used result keeps its check, also through a chain of ops.
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def used_through_chain(x, i):
    e = x[i]
    f = e * 2.0 + 1.0
    return tf.reduce_sum(x) + f


# tf.concat and tf.stack of tensors whose dynamic sizes disagree (TensorFlow: "Dimension 1
# in both shapes must be equal", "Shapes of all inputs must match"); agc once joined them
# anyway and returned garbage with exit 0.
@tf.function(input_signature=[tf.TensorSpec(shape=[2, None], dtype=tf.float32),
                              tf.TensorSpec(shape=[2, None], dtype=tf.float32)])
def concat_dynamic(a, b):
    return tf.concat([a, b], axis=0)


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[None], dtype=tf.float32)])
def stack_dynamic(a, b):
    return tf.stack([a, b, a], axis=1)


@tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.int32),
                              tf.TensorSpec(shape=[3, None], dtype=tf.int32)])
def concat_static_against_dynamic(a, b):
    return tf.concat([a, tf.transpose(b)], axis=1)


# Joining tensors with no elements gives a tensor with no elements (agc's lowering once
# failed MLIR's verifier here), still checked.
@tf.function(input_signature=[tf.TensorSpec(shape=[3, 0], dtype=tf.int32),
                              tf.TensorSpec(shape=[None, 0], dtype=tf.int32)])
def stack_empty(a, b):
    return tf.stack([a, b], axis=2), tf.concat([a, b], axis=0)


# An index into a slice with no elements is still checked (agc once returned the empty
# slice whatever the index).
@tf.function(input_signature=[tf.TensorSpec(shape=[1, None, 0], dtype=tf.float32)])
def index_empty_slice(x):
    return x[:, 3]


# Broadcasting a size that is 1 only at run time, as TensorFlow does (agc once raised
# "incompatible shapes" there): in either operand, in one dimension of several, with a
# static size on the other side, in a chain, and through tf.where's three operands.
@tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32),
                              tf.TensorSpec(shape=[None, None], dtype=tf.float32)])
def broadcast_dynamic_2d(a, b):
    c = a * b
    return c - tf.exp(b) / 2.0, tf.maximum(c, a)


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32),
                              tf.TensorSpec(shape=[3], dtype=tf.int32)])
def broadcast_dynamic_against_static(a, b):
    return a + b, b // tf.maximum(a, 1)


@tf.function(input_signature=[tf.TensorSpec(shape=[None, 1], dtype=tf.bool),
                              tf.TensorSpec(shape=[None], dtype=tf.float64),
                              tf.TensorSpec(shape=[None, None], dtype=tf.float64)])
def broadcast_dynamic_where(c, x, y):
    return tf.where(c, x, y)


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def broadcast_dynamic_in_loop(x):
    s = tf.zeros(tf.shape(x))
    for i in tf.range(3):
        s = s + x[:1] * tf.cast(i, tf.float32)  # x[:1] is of shape (None,): 1 at run time
    return s


# Chains over several operands of sizes known only at run time, which agc computes in one
# loop where no operand broadcasts (one test of all the sizes first) and op by op where
# one does: equal sizes, either operand of size 1, sizes that do not broadcast; a print
# and a check between the ops (they run once, in order, on either path); a bias and a
# scale along the rows; a staged loop whose body broadcasts.
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def broadcast_chain_two_dynamic(w, g):
    return (w * g + w - g) * 0.5, tf.tanh(w - g) * g


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def broadcast_chain_effects(x, y):
    a = x * y + 1.0
    tf.print("a:", a)
    b = a - y
    tf.debugging.assert_less(b, 100.0, message="b too large")
    return b * x


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def broadcast_bias_rows(m, scale, bias):
    return tf.nn.relu(m * scale + bias), m - tf.reduce_mean(m, axis=1, keepdims=True) * scale


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def broadcast_in_while(x, y):
    s = x * 0.0
    while tf.reduce_sum(s) < 10.0:
        s = s + x * y + 1.0
    return s


# An integer divisor of zero raises only where something is divided: a dividend with no
# elements divides nothing (agc once checked every divisor before the loop regardless).
@tf.function(input_signature=[tf.TensorSpec(shape=[None, 1], dtype=tf.int32),
                              tf.TensorSpec(shape=[None], dtype=tf.int32)])
def floordiv_empty_dividend(x, d):
    return x // d, x % d


# A division by a constant zero after a sum with keepdims: the check, with no tensor
# operand left once its constant divisor is folded in, was an internal error.
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])
def floordiv_sum_by_constant_zero(x):
    return tf.square(tf.reduce_sum(x, axis=0, keepdims=True) // 0) + 1
