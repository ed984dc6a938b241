"""Work large enough to be split into chunks that run on all cores (32768 iteration points
and more): sums, products, maxima and means of whole tensors and along each axis, row
softmax, elementwise chains, matmuls and a gather, at sizes just under, at and over the
threshold, with remainders in the last chunk, as static shapes and as shapes known only
at run time. The inputs are made inside each function (tf.range of a size argument), so
that a case stays small while the tensors are not."""
import tensorflow as tf


def ramp(n):
    # Positive values with no cancellation, so a sum in any order is within 1e-5 relative.
    return tf.cast(tf.range(n) % 1000, tf.float32) * 0.001 + 0.5


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def whole_reductions(n):
    x = ramp(n)
    return (tf.reduce_sum(x), tf.reduce_mean(x), tf.reduce_max(x * tf.sin(x * 40.0)),
            tf.reduce_min(tf.cos(x * 30.0)),
            # Factors whose product is exact in any order (2, 0.5, ... among the first
            # 200, 1 after, and one 3). Not 2 and 0.5 all along: then partial products
            # overflow in some orders and not in others (TensorFlow's CPU kernels, which
            # keep every 8th or 16th factor in one vector lane, give NaN, the
            # product of inf and 0, where a GPU's block tree, pairing neighbours, gives 6).
            tf.reduce_prod(tf.where(tf.range(n) < 200,
                                    tf.where(tf.range(n) % 2 == 0, 2.0, 0.5), 1.0) *
                           tf.where(tf.range(n) == n // 3, 3.0, 1.0)))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def whole_reductions_f64(n):
    x = tf.cast(ramp(n), tf.float64)
    return tf.reduce_sum(x * x), tf.reduce_max(-x), tf.math.reduce_std(x)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def integer_reductions(n):
    i = tf.range(n)
    return (tf.reduce_sum(i % 7), tf.reduce_max(i * 3 % 1001), tf.reduce_min(100 - i % 13),
            tf.reduce_prod(i % 2 * 2 + 1), tf.reduce_sum(tf.cast(i, tf.int64) * 3),
            tf.reduce_any(tf.equal(i, n - 1)), tf.reduce_all(i >= 0))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def special_values(n):
    # A NaN or an infinity in one chunk decides the whole result.
    x = ramp(n)
    i = tf.range(n)
    with_nan = tf.where(tf.equal(i, n - 3), float("nan"), x)
    with_inf = tf.where(tf.equal(i, n // 2), float("inf"), x)
    return (tf.reduce_sum(with_nan), tf.reduce_max(with_nan), tf.reduce_sum(with_inf),
            tf.reduce_min(-with_inf), tf.reduce_max(with_inf - with_inf))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def axis_reductions(rows, cols):
    m = tf.reshape(ramp(rows * cols), [rows, cols])
    return (tf.reduce_sum(m, axis=1), tf.reduce_sum(m, axis=0), tf.reduce_max(m, axis=0),
            tf.reduce_mean(m, axis=1)[::7], tf.argmax(m, axis=1)[::5])


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def row_softmax(rows, cols):
    m = tf.reshape(ramp(rows * cols), [rows, cols]) * 6.0 - 4.0
    s = tf.nn.softmax(m)
    return tf.reduce_sum(s, axis=1), s[:, ::97], tf.reduce_max(tf.nn.log_softmax(m), axis=0)


def cube(a, b, c, inf_at):
    # An [a, b, c] ramp, its elements' positions, and the ramp with a NaN in the middle
    # and an infinity at position inf_at.
    t = tf.reshape(ramp(a * b * c), [a, b, c])
    i = tf.reshape(tf.range(a * b * c), [a, b, c])
    odd = tf.where(tf.equal(i, a * b * c // 2), float("nan"), t)
    return t, i, tf.where(tf.equal(i, inf_at), float("inf"), odd)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                              tf.TensorSpec([], tf.int32)])
def last_axis_reductions(a, b, c):
    # Along the last axis (the contiguous one), and the last two: one or two leading axes
    # kept, rows of 0, 1, 31-33, 63-65 and many elements, a NaN and an infinity in one row.
    t, i, odd = cube(a, b, c, a * b * c - 1)
    flat = tf.reshape(t, [a * b, c])
    return (tf.reduce_sum(t, axis=2), tf.reduce_max(t * tf.sin(t * 40.0), axis=-1),
            tf.reduce_sum(t * t, axis=[1, 2]), tf.reduce_min(i % 1001 - 500, axis=2),
            tf.reduce_any(tf.equal(i % 97, 0), axis=2), tf.reduce_max(odd, axis=2),
            tf.reduce_sum(odd, axis=2), tf.reduce_mean(flat, axis=1),
            tf.reduce_prod(tf.where(i % 3 == 0, 2.0, 0.5), axis=2))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                              tf.TensorSpec([], tf.int32)])
def leading_axis_reductions(a, b, c):
    # Along the first axis and the middle one (column sums, batch statistics): few
    # columns or many, long columns or none, a NaN and an infinity in one column.
    t, i, odd = cube(a, b, c, 0)
    flat = tf.reshape(t, [a, b * c])
    mean, variance = tf.nn.moments(flat, axes=[0])
    return (tf.reduce_sum(t, axis=0), tf.reduce_max(t * tf.sin(t * 40.0), axis=1),
            tf.reduce_min(i % 1001 - 500, axis=0), tf.reduce_any(tf.equal(i % 97, 0), axis=1),
            tf.reduce_max(odd, axis=0), tf.reduce_sum(odd, axis=[0, 1]), mean, variance,
            tf.reduce_prod(tf.where(i % 3 == 0, 2.0, 0.5), axis=0))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def elementwise_chain(n):
    x = ramp(n) * 4.0 - 2.0
    y = tf.tanh(x * 0.5 + 1.0) * tf.exp(-tf.abs(x)) + tf.sqrt(tf.abs(x)) / (1.0 + x * x)
    return y[::1013], tf.reduce_sum(y), tf.shape(y)


def matrices(m, k, n):
    # An m x k and a k x n operand of ramps.
    return (tf.reshape(ramp(m * k), [m, k]) - 0.9,
            tf.reshape(ramp(k * n) * 2.0, [k, n]) - 1.3)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                              tf.TensorSpec([], tf.int32)])
def matmul(m, k, n):
    a, b = matrices(m, k, n)
    c = tf.matmul(a, b)
    return tf.reduce_sum(c, axis=0), tf.reduce_sum(c, axis=1), c[::11, ::13]


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                              tf.TensorSpec([], tf.int32)])
def matmul_sums(m, k, n):
    # matmul's product read only by reductions (no slice of it); on the GPU, above 524,288
    # outputs, a thread per tile of 4 x 4 outputs, and the tiles at the edges.
    a, b = matrices(m, k, n)
    c = tf.matmul(a, b)
    return tf.reduce_sum(c, axis=0), tf.reduce_max(c, axis=1)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                              tf.TensorSpec([], tf.int32)])
def matmul_blocks(m, k, n):
    # matmul's product read by its maxima and minima and a grid of its elements, none a
    # long sum of terms of both signs (whose order TensorFlow and agc may choose apart);
    # on the GPU, rows a multiple of 32 and columns of 128, blocks of 32 x 128 outputs
    # with A and B staged in shared memory.
    a, b = matrices(m, k, n)
    c = tf.matmul(a, b)
    return tf.reduce_max(c, axis=0), tf.reduce_min(c, axis=1), c[::3, ::5]


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32),
                              tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def batch_matmul(batch, m, k, n):
    # A batch of matmuls and one transposed, read by reductions; on the GPU, above 524,288
    # outputs, a thread per tile of 4 x 4 outputs of each matrix.
    a = tf.reshape(ramp(batch * m * k), [batch, m, k]) - 0.9
    b = tf.reshape(ramp(batch * k * n) * 2.0, [batch, k, n]) - 1.3
    c = tf.matmul(a, b)
    d = tf.matmul(b, a, transpose_a=True, transpose_b=True)
    return tf.reduce_sum(c, axis=1), tf.reduce_min(d, axis=2)


@tf.function
def static_shapes():
    # The same work with every size known while compiling.
    x = ramp(100003)
    m = tf.reshape(ramp(300 * 517), [300, 517])
    a = tf.reshape(ramp(96 * 200), [96, 200])
    b = tf.reshape(ramp(200 * 70), [200, 70]) - 1.0
    t = tf.reshape(ramp(3 * 5 * 70), [3, 5, 70])
    return (tf.reduce_sum(x), tf.reduce_max(tf.sin(x * 50.0)), tf.reduce_sum(m, axis=0),
            tf.reduce_sum(tf.nn.softmax(m), axis=1), tf.reduce_sum(tf.matmul(a, b), axis=1),
            tf.reduce_max(m, axis=1), tf.reduce_sum(t, axis=2), tf.reduce_min(t, axis=[1, 2]))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def gather_in_large_work(n, index):
    # A bad index is an error status from the call, also when the work around it is split.
    x = ramp(n) * 3.0
    idx = tf.range(n) % 1000 + index
    return tf.reduce_sum(tf.gather(x, idx) * x)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def loop_of_large_steps(n):
    # Split work inside a staged loop: each iteration's chunks, then the loop's test.
    x = ramp(n)
    total = tf.constant(0.0)
    i = tf.constant(0)
    while i < 4:
        x = tf.sqrt(x * x + 1.0) - 0.5
        total += tf.reduce_sum(x)
        i += 1
    return total, x[::4999]


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def mlp_scores(batch):
    # A two-layer perceptron on a batch, written as a user writes one (the custom
    # training guide's dense layers; weights made deterministically, not trained). On
    # the GPU, the first layer's 4099 x 257 product is a kernel of register tiles.
    x = tf.reshape(tf.cast(tf.range(batch * 300) % 97, tf.float32) / 97.0, [batch, 300])
    w1 = tf.reshape(tf.sin(tf.cast(tf.range(300 * 257), tf.float32)), [300, 257]) * 0.1
    b1 = tf.cos(tf.cast(tf.range(257), tf.float32)) * 0.01
    w2 = tf.reshape(tf.cos(tf.cast(tf.range(257 * 10), tf.float32)), [257, 10]) * 0.1
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    logits = tf.matmul(h, w2)
    return tf.reduce_mean(tf.nn.softmax(logits), axis=0), tf.argmax(logits, axis=1)[:7]


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def point_cloud(n):
    # n points of 3 coordinates centred and scaled, and n pairs of them: tensors of many
    # short rows. On the GPU, rows of 3 elements are blocks of 3 x 85 threads (600,000
    # rows were 75,000 blocks of 8 rows along the grid's y, which takes at most 65,535:
    # a launch the driver refuses), and a [n, 2, 3] tensor's 3 x 2 x 42.
    p = tf.reshape(ramp(n * 3), [n, 3]) * 2.0 - 1.5
    centered = p - tf.reduce_mean(p, axis=0)
    scaled = centered / tf.reduce_max(tf.abs(centered), axis=0)
    pairs = tf.reshape(ramp(n * 6), [n, 2, 3]) - tf.constant([0.5, 1.0, 0.25])
    return (scaled[::4999], tf.reduce_sum(scaled * scaled, axis=1)[::7919],
            tf.reduce_min(scaled, axis=0), (pairs * pairs)[::6007])


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def long_pairs(n):
    # n rows of 2, rewritten in a staged loop (so that each step is stored whole). On the
    # GPU a row of 2 is blocks of 2 x 128 threads, and the grid's y takes at most 65,535
    # of them (8,388,480 rows): past that, one launch for each 65,535 blocks of rows,
    # the last of fewer.
    w = tf.reshape(tf.range(n * 2) % 101, [n, 2])
    for _ in tf.range(2):
        w = w * 3 % 101 + 1
    return tf.reduce_sum(w, axis=0), w[::999983], w[-3:]
