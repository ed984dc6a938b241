import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def chain(x):
    """One fused elementwise kernel."""
    return tf.nn.relu(2.0 * x + 1.0) * 0.5 + tf.exp(x)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None], tf.float32)])
def rows(m, b):
    """A 2-D kernel (a broadcast), then a sum: a kernel of partials, summed on the host."""
    return tf.reduce_sum(tf.tanh(m + b))


@tf.function(input_signature=[tf.TensorSpec([5], tf.float32)])
def squash(x):
    """The guide's tanh loop: the staged loop on the host, its tanh a kernel."""
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32)])
def divide(a, b):
    """Integer division checks its divisor (a run-time error) on the host: the division is a kernel."""
    return a // b


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def collatz(n):
    """Scalar control flow only: no kernel, so it runs where no GPU is."""
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
