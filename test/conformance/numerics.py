"""Numerical programs: Newton, bisection, Mandelbrot, GCD, Collatz, primes, RNN, softmax."""
import tensorflow as tf


@tf.function
def newton_sqrt(a):
    x = a
    for _ in tf.range(30):
        x = 0.5 * (x + a / x)
    return x


@tf.function
def newton_cbrt(a):
    x = tf.ones_like(a)
    i = 0
    while i < 50:
        x = x - (x * x * x - a) / (3.0 * x * x)
        i += 1
    return x


@tf.function
def bisection(lo, hi):
    # root of x^3 - 2x - 5
    for _ in tf.range(60):
        mid = (lo + hi) / 2.0
        if mid * mid * mid - 2.0 * mid - 5.0 > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2.0


@tf.function
def mandelbrot_count(cr, ci):
    zr = tf.constant(0.0)
    zi = tf.constant(0.0)
    n = 0
    while n < 100 and zr * zr + zi * zi <= 4.0:
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
        n += 1
    return n


@tf.function
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@tf.function
def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@tf.function
def count_primes(n):
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


@tf.function
def rnn_steps(xs, w, u):
    h = tf.zeros([1, 3])
    for x in xs:
        h = tf.tanh(tf.matmul(tf.reshape(x, [1, 2]), w) + tf.matmul(h, u))
    return h


@tf.function
def softmax_rows(logits):
    e = tf.exp(logits - tf.reduce_max(logits, axis=1, keepdims=True))
    return e / tf.reduce_sum(e, axis=1, keepdims=True), tf.nn.softmax(logits)


@tf.function
def tanh_values(x):
    # agc evaluates float32 tanh as TensorFlow's Eigen kernels do, a rational function
    # (ag-approximate-tanh): near 0 (where tanh(x) is x), the clamp near 7.9, infinities,
    # NaN and signed zeros; float64 keeps libm.
    return tf.tanh(x), tf.tanh(tf.cast(x, tf.float64)), tf.nn.tanh(x * 0.5)


@tf.function
def exp_values(x):
    # agc evaluates float32 exp as a polynomial (ag-approximate-exp): its whole range,
    # the subnormal results below -87 included.
    return tf.exp(x)


@tf.function
def exp_zero_inf_nan(x):
    # Exactly 0 below the subnormals, exactly inf above the largest float, NaN kept.
    y = tf.exp(x)
    return y == 0.0, y > 3.4e38, y != y


@tf.function
def masked_softmax(logits, mask):
    # Masked logits are -inf: their probability is exactly 0.
    logits = tf.where(mask, logits, tf.fill(tf.shape(logits), -1e30) * 1e30)
    e = tf.exp(logits - tf.reduce_max(logits, axis=1, keepdims=True))
    p = e / tf.reduce_sum(e, axis=1, keepdims=True)
    return p, p == 0.0


@tf.function
def matmul_blocks(a, b):
    # Large enough for ag-matmul-microkernel (4 x 16 blocks in registers); shapes that
    # are not multiples of the block leave edges, computed as smaller matmuls.
    c = tf.matmul(a, b)
    return c, tf.matmul(a, b) * 2.0 + tf.reduce_sum(a)


@tf.function
def power_iteration(m):
    v = tf.ones([3, 1])
    for _ in tf.range(100):
        v = tf.matmul(m, v)
        v = v / tf.sqrt(tf.reduce_sum(v * v))
    return tf.reduce_sum(v * tf.matmul(m, v))


@tf.function
def integer_sqrt(n):
    r = tf.constant(0, dtype=tf.int64)
    while (r + 1) * (r + 1) <= n:
        r += 1
    return r


@tf.function
def horner(coeffs, x):
    acc = tf.constant(0.0)
    for c in coeffs:
        acc = acc * x + c
    return acc


@tf.function
def exp_series(x):
    term = tf.ones_like(x)
    total = tf.ones_like(x)
    for k in tf.range(1, 25):
        term = term * x / tf.cast(k, tf.float64)
        total += term
    return total


@tf.function
def digit_sum(n):
    s = 0
    while n > 0:
        s += n % 10
        n //= 10
    return s


@tf.function
def signed_zero_min(x):
    # x * 0.0 holds +0.0 and -0.0; dividing by their minimum shows which one it is.
    z = x * 0.0
    return 1.0 / tf.reduce_min(z), 1.0 / tf.minimum(z[0], z[1])


@tf.function
def clip_crossed_bounds(x, lo, hi):
    # With lo > hi TensorFlow clips to lo: maximum(minimum(x, hi), lo).
    return tf.clip_by_value(x, lo, hi)


@tf.function
def denormals_flush(x):
    # TensorFlow's CPU kernels flush denormals to zero, as inputs and as results: a
    # denormal divisor is a zero one, and a denormal result is 0.
    return (x / 2.0, tf.math.floormod(tf.ones_like(x), x), tf.exp(x * 0.0 - 100.0),
            tf.reduce_sum(x), x)


@tf.function
def log_values(x):
    # agc evaluates float32 log as a polynomial on the mantissa, as TensorFlow's Eigen
    # kernels do (ag-approximate-log): every decade of the range, the neighbours of 1,
    # 0 and -0 (-inf), a denormal (0 to TensorFlow's kernels: -inf), negatives and NaN
    # (NaN), inf; float64 keeps libm; log_softmax uses it.
    return tf.math.log(x), tf.math.log(tf.cast(tf.abs(x), tf.float64) + 1.0)


@tf.function
def log_in_a_loop(x):
    # The log of a row's sum, in a loop that vectorizes: a log-sum-exp.
    m = tf.reduce_max(x, axis=1, keepdims=True)
    return tf.math.log(tf.reduce_sum(tf.exp(x - m), axis=1)) + m[:, 0], tf.nn.log_softmax(x)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float64)])
def exact_powers(x, y):
    # Powers of 2, 1, 0 and -1 are one operation (-ag-exact-powers): the same special
    # values as pow (NaN ** 0 is 1, -0 ** -1 is -inf, squares that overflow or vanish).
    # (Not -inf ** 0.5: TensorFlow's own differs between tensors, NaN, and scalars, inf.)
    return (x ** 2, tf.pow(x, 1.0), x ** 0.0, x ** -1, x ** 3,
            y ** 2, tf.pow(y, -1.0), tf.reduce_sum((x - 1.0) ** 2))
