"""The benchmark workloads as a TensorFlow user writes them: agc compiles this file, and
TensorFlow runs the same functions eagerly, as graphs and through XLA (bench.py).

Each function has an input_signature, so that agc and TensorFlow trace it with the same
types and shapes.
"""
import tensorflow as tf

# --- loop-heavy scalar programs ----------------------------------------------------------


@tf.function(input_signature=[tf.TensorSpec([], tf.int64)])
def collatz_total(n):
    """The sum of the Collatz stopping times of 1..n."""
    total = tf.constant(0, tf.int64)
    for i in tf.range(1, n + 1):
        k = i
        while k > 1:
            if k % 2 == 0:
                k = k // 2
            else:
                k = 3 * k + 1
            total += 1
    return total


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def count_primes(n):
    """How many primes are below n, by trial division."""
    count = 0
    for k in tf.range(2, n):
        d = 2
        prime = True
        while d * d <= k and prime:
            if k % d == 0:
                prime = False
            d += 1
        if prime:
            count += 1
    return count


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32)])
def gcd_total(a, b):
    """The sum of gcd(a[i], b[i]) over all pairs, by Euclid's algorithm."""
    total = tf.constant(0, tf.int64)
    for i in tf.range(tf.size(a)):
        x = a[i]
        y = b[i]
        while y != 0:
            x, y = y, x % y
        total += tf.cast(x, tf.int64)
    return total


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def double(a):
    """A scalar function, for the cost of one call."""
    return a + a


# --- small tensors in loops --------------------------------------------------------------


@tf.function(input_signature=[tf.TensorSpec([5], tf.float32)])
def tanh_loop(x):
    """The loop of TensorFlow's AutoGraph guide, without its tf.print."""
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


@tf.function(input_signature=[tf.TensorSpec([1000, 16], tf.float32),
                              tf.TensorSpec([16, 32], tf.float32),
                              tf.TensorSpec([32, 32], tf.float32),
                              tf.TensorSpec([32], tf.float32)])
def rnn(xs, wx, wh, b):
    """An Elman RNN cell over 1,000 steps; every state kept in a TensorArray."""
    steps = tf.shape(xs)[0]
    states = tf.TensorArray(tf.float32, size=steps)
    h = tf.zeros([1, 32])
    for t in tf.range(steps):
        h = tf.tanh(tf.matmul(tf.reshape(xs[t], [1, 16]), wx) + tf.matmul(h, wh) + b)
        states = states.write(t, h[0])
    return states.stack()


@tf.function(input_signature=[tf.TensorSpec([1000], tf.float32)])
def newton_sqrt(a):
    """Square roots of 1,000 numbers, 50 Newton iterations."""
    x = a
    for _ in tf.range(50):
        x = 0.5 * (x + a / x)
    return x


# --- large tensors -----------------------------------------------------------------------


@tf.function(input_signature=[tf.TensorSpec([10_000_000], tf.float32)])
def elementwise_chain(x):
    """A chain of elementwise ops over 10^7 floats: one read and one write per element
    when fused."""
    return tf.nn.relu(x * 2.0 + 1.0) * 0.5 + x


@tf.function(input_signature=[tf.TensorSpec([10_000_000], tf.float32),
                              tf.TensorSpec([10_000_000], tf.float32)])
def binary_chain(x, y):
    """An elementwise chain over two inputs of 10^7 floats: two reads and one write per
    element when fused."""
    return (x * y + x - y) * 0.5


@tf.function(input_signature=[tf.TensorSpec([10_000_000], tf.float32)])
def reduce_total(x):
    """reduce_sum of 10^7 floats."""
    return tf.reduce_sum(x)


@tf.function(input_signature=[tf.TensorSpec([1024, 1024], tf.float32),
                              tf.TensorSpec([1024, 1024], tf.float32)])
def matmul(a, b):
    """A 1024x1024 float32 matrix product."""
    return tf.matmul(a, b)


@tf.function(input_signature=[tf.TensorSpec([4096, 1024], tf.float32)])
def softmax(x):
    """Softmax over the rows of a 4096x1024 matrix."""
    return tf.nn.softmax(x)


# The same large-tensor workloads with the dimensions known only at run time, as most
# signatures give them: each must run as fast as its static twin.

@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def elementwise_chain_dyn(x):
    return tf.nn.relu(x * 2.0 + 1.0) * 0.5 + x


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def binary_chain_dyn(x, y):
    # Either input may turn out to be of size 1 and broadcast (TensorFlow's rule): one
    # test of the sizes, then the fused loop where neither does.
    return (x * y + x - y) * 0.5


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def reduce_total_dyn(x):
    return tf.reduce_sum(x)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None, None], tf.float32)])
def matmul_dyn(a, b):
    return tf.matmul(a, b)


matmul_odd_dyn = matmul_dyn  # the benchmark's 1000 x 1000 inputs (bench.py)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def softmax_dyn(x):
    return tf.nn.softmax(x)
