"""Complex numbers as signal code uses them: a discrete Fourier transform written with
tf.complex, exp and a matrix product, and the Mandelbrot iteration as a staged loop."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def dft(x):
    # X[k] = sum_n x[n] exp(-2 pi i k n / N)
    n = tf.cast(tf.size(x), tf.float32)
    k = tf.cast(tf.range(tf.size(x)), tf.float32)
    angle = -2.0 * 3.14159265358979 * k[:, None] * k[None, :] / n
    basis = tf.exp(tf.complex(tf.zeros_like(angle), angle))
    signal = tf.complex(x, tf.zeros_like(x))
    return tf.linalg.matvec(basis, signal)


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.complex64),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def escape_time(c, max_iter):
    z = tf.zeros_like(c)
    n = 0
    while tf.abs(z) <= 2.0 and n < max_iter:
        z = z * z + c
        n += 1
    return n
