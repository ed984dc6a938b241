import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.float64), tf.TensorSpec([], tf.float64),
                              tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.float32)])
def sweep(lo, step, n, sign):
    """n inputs log-spaced from sign * e^lo by e^step, and the kernels' math of them."""
    x = tf.cast(tf.exp(tf.cast(tf.range(n), tf.float64) * step + lo), tf.float32) * sign
    return (x, tf.math.erf(x), tf.math.expm1(x), tf.math.log1p(x), tf.math.rsqrt(x),
            tf.exp(x), tf.math.log(x), tf.tanh(x))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def special(x):
    return (x, tf.math.erf(x), tf.math.expm1(x), tf.math.log1p(x), tf.math.rsqrt(x),
            tf.exp(x), tf.math.log(x), tf.tanh(x))


@tf.function(input_signature=[tf.TensorSpec([], tf.float64), tf.TensorSpec([], tf.float64),
                              tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.float32)])
def trig_sweep(lo, step, n, sign):
    """As sweep, for sin and cos: a kernel computes them for magnitudes up to 105615."""
    x = tf.cast(tf.exp(tf.cast(tf.range(n), tf.float64) * step + lo), tf.float32) * sign
    return x, tf.sin(x), tf.cos(x)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def trig_special(x):
    """Beyond 105615, infinite or NaN, the host computes them (the loop reruns there)."""
    return x, tf.sin(x), tf.cos(x)
