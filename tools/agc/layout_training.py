"""Programs that `order_functions.py` compiles under callgrind to learn which of agc's
functions a compile runs (tools/meson.build links those first, together). Written as users
write them, after TensorFlow's guides: a staged loop over a tensor, a row softmax, a
matmul with a bias, a reduction and a scalar loop with a break. Not a test: what they
compute is checked by the tests that compile the same kinds of programs."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def softmax(x):
    e = tf.exp(x - tf.reduce_max(x, axis=1, keepdims=True))
    return e / tf.reduce_sum(e, axis=1, keepdims=True)


@tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32),
                              tf.TensorSpec([64, 32], tf.float32),
                              tf.TensorSpec([32], tf.float32)])
def dense(x, w, b):
    return tf.nn.relu(tf.matmul(x, w) + b)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def mean_square(x):
    return tf.reduce_mean(tf.square(x))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def first_square_above(n):
    i = tf.constant(0)
    while i < 1000:
        if i * i > n:
            break
        i += 1
    return i
