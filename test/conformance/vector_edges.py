"""Reductions and elementwise chains at the sizes where vector code has edges: 0, 1, 15, 16,
17, 33 and larger, along dimensions known only at run time (the vectorized loop, its
remainder, and a loop too short for vectors), with NaN, infinities and signed zeros where
they decide the result."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def full_reductions(x):
    return (tf.reduce_sum(x), tf.reduce_mean(x), tf.reduce_max(x), tf.reduce_min(x),
            tf.reduce_prod(x * 0.01 + 1.0))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
def full_reductions_f64(x):
    return tf.reduce_sum(x), tf.reduce_max(x), tf.reduce_prod(x * 0.01 + 1.0)


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def integer_reductions(x):
    return tf.reduce_sum(x), tf.reduce_max(x), tf.reduce_min(x), tf.reduce_prod(x % 3 + 1)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def axis_reductions(m):
    return (tf.reduce_sum(m, axis=1), tf.reduce_sum(m, axis=0), tf.reduce_max(m, axis=1),
            tf.reduce_mean(m, axis=0), tf.reduce_min(m, axis=1))


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def row_softmax(m):
    return tf.nn.softmax(m), tf.nn.log_softmax(m)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def elementwise_chain(x):
    return tf.tanh(x * 0.5 + 1.0) * tf.exp(-tf.abs(x)) + tf.sqrt(tf.abs(x))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def sum_of_squares_then_sqrt(x):
    # A reduction fed by elementwise work and feeding it: the L2 norm.
    return tf.sqrt(tf.reduce_sum(tf.square(x))), tf.norm(x)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None, None], tf.float32)])
def matmul_any_size(a, b):
    # agc's register-blocked kernel (8 x 32 blocks on AVX-512, 4 x 16 on AVX2), blocks one
    # vector wide over the columns those leave, and the edges; or edges only.
    return tf.matmul(a, b)


@tf.function(input_signature=[tf.TensorSpec([6, 3], tf.float32),
                              tf.TensorSpec([3, 95], tf.float32)])
def matmul_static_edges(a, b):
    # Shapes known while compiling: 64 + 16 columns in blocks, 15 and 2 rows at the edges.
    return tf.matmul(a, b)


@tf.function(input_signature=[tf.TensorSpec([None, None, None], tf.float32),
                              tf.TensorSpec([None, None, None], tf.float32)])
def batch_matmul_any_size(a, b):
    # A batch of matmuls at small and odd sizes (on the GPU, below the register tiles'
    # threshold: a thread per output).
    return tf.matmul(a, b)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32),
                              tf.TensorSpec([None, None], tf.int32)])
def int_matmul_transposed(a, b):
    # An integer matmul of a transposed B, and a bias after it.
    return tf.matmul(a, b, transpose_b=True) + 1


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def four_at_a_time(n, cols):
    # Elementwise work at sizes around multiples of 4 (on the GPU a thread computes four
    # neighbouring elements, read and written by one vector access where the buffers are
    # aligned): whole tensors; views from an odd offset (x[1:], m[:, 1:]: not aligned,
    # element by element); rows of a width that is not a multiple of 4; broadcasts along
    # either axis; elements of 1, 2, 4 and 8 bytes; a comparison's bools.
    x = tf.cast(tf.range(n) % 23, tf.float32) * 0.25 - 2.0
    chain = tf.nn.relu(x * 2.0 + 1.0) * 0.5 + x
    shifted = x[1:] * 3.0 - x[:-1]
    m = tf.reshape(tf.cast(tf.range(n * cols) % 19, tf.float32), [n, cols])
    scaled = m * tf.cast(tf.range(cols), tf.float32) + tf.cast(tf.range(n), tf.float32)[:, None]
    inner = m[:, 1:] - 1.0
    small = tf.cast(tf.range(n) % 50, tf.int8) * 2 + 1
    half = tf.cast(x, tf.float16) * 1.5 + 0.25
    wide = tf.cast(x, tf.float64) / 3.0
    big = tf.cast(tf.range(n), tf.int64) * 3 - 7
    return chain, shifted, scaled, inner, small, half, wide, big, x < chain


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def layer_norm_gelu(x, gamma, beta):
    # Layer normalization and a GELU as a user writes them (tf.nn.moments, rsqrt, a scale
    # and shift broadcast along the rows), at row widths around multiples of 4.
    mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
    y = (x - mean) * tf.math.rsqrt(var + 1e-5) * gamma + beta
    return tf.nn.gelu(y), tf.clip_by_value(y, -1.0, 1.0)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def adam_step(w, g):
    # One Adam update from zero moments, written out as a user writes it.
    m = 0.1 * g
    v = 0.001 * tf.square(g)
    m_hat = m / (1.0 - 0.9)
    v_hat = v / (1.0 - 0.999)
    return w - 0.001 * m_hat / (tf.sqrt(v_hat) + 1e-7)
