"""complex64 and complex128: made with tf.complex or passed in, taken apart with
tf.math.real/imag/abs/angle/conj, through arithmetic, the transcendental functions, sums and
means, casts, shapes and staged control flow (the Mandelbrot iteration), with TensorFlow's
refusals where complex numbers have no meaning (order, floor division, max)."""
import tensorflow as tf


@tf.function
def make_and_take_apart(re, im):
    z = tf.complex(re, im)
    return z, tf.math.real(z), tf.math.imag(z), tf.math.conj(z), tf.abs(z), tf.math.angle(z)


@tf.function
def arithmetic(z, w):
    return z + w, z - w, z * w, z / w, -z


@tf.function
def with_python_numbers(z):
    # A Python number takes the tensor's dtype: 1.5 is 1.5 + 0j.
    return z + 1.5, z * 2, 3.0 - z, z / 4.0


@tf.function
def equality(z, w):
    return z == w, z != w, tf.equal(z, w), tf.not_equal(z, z)


@tf.function
def transcendental(z):
    return tf.exp(z), tf.math.log(z), tf.sqrt(z), tf.sin(z), tf.cos(z), tf.tanh(z)


@tf.function
def more_functions(z):
    return (tf.math.rsqrt(z), tf.math.reciprocal(z), tf.square(z), tf.math.sign(z),
            tf.sigmoid(z), tf.math.expm1(z), tf.math.log1p(z), tf.tan(z))


@tf.function
def powers(z, w):
    return tf.pow(z, w), z ** 2.0


@tf.function
def reductions(z):
    return (tf.reduce_sum(z), tf.reduce_mean(z), tf.reduce_prod(z),
            tf.reduce_sum(z, axis=0), tf.reduce_mean(z, axis=1, keepdims=True))


@tf.function
def casts_in(x, n, b):
    return (tf.cast(x, tf.complex64), tf.cast(n, tf.complex64), tf.cast(b, tf.complex128),
            tf.cast(x, tf.complex128))


@tf.function
def casts_out(z):
    # To a real dtype the imaginary part is dropped; to bool, zero is False.
    return (tf.cast(z, tf.float32), tf.cast(z, tf.int32), tf.cast(z, tf.bool),
            tf.cast(z, tf.complex128), tf.cast(z, tf.float64))


@tf.function
def prints(z):
    # TensorFlow 2.21's tf.print writes '?' for each complex element.
    tf.print("z:", z)
    tf.print(z[0])
    return tf.abs(z)


@tf.function
def mandelbrot_escape(c, max_iter):
    # The classic: iterate z = z * z + c until |z| > 2 or max_iter steps.
    z = tf.zeros_like(c)
    n = 0
    while tf.abs(z) <= 2.0 and n < max_iter:
        z = z * z + c
        n += 1
    return n, z


@tf.function
def mandelbrot_grid(re, im, steps):
    # Every point of a grid at once: a count of the steps each stays bounded.
    c = tf.complex(re, im)
    z = tf.zeros_like(c)
    count = tf.zeros(tf.shape(c), tf.int32)
    for _ in tf.range(steps):
        z = z * z + c
        inside = tf.abs(z) <= 2.0
        count += tf.cast(inside, tf.int32)
        z = tf.where(inside, z, tf.zeros_like(z))
    return count


@tf.function
def staged_if(z):
    if tf.abs(z) > 1.0:
        z = z / tf.cast(tf.abs(z), tf.complex64)
    else:
        z = z * 2.0
    return z


@tf.function
def rotations(z, turns):
    # Multiply by i, `turns` times, in a staged loop.
    i = tf.complex(0.0, 1.0)
    for _ in tf.range(turns):
        z = z * i
    return z


@tf.function
def shapes(z):
    m = tf.reshape(z, [2, 2])
    return (tf.transpose(m), tf.concat([z, z], 0), tf.stack([z, z]), tf.expand_dims(z, 0),
            tf.gather(z, [3, 0]), tf.tile(z, [2]), tf.reverse(z, [0]), m[1], z[1:3],
            tf.shape(z), tf.size(z))


@tf.function
def creation(z):
    return (tf.zeros([2], tf.complex64), tf.ones_like(z), tf.zeros_like(z),
            tf.fill([3], tf.complex(1.0, -2.0)), tf.constant(2.5, dtype=tf.complex64))


@tf.function
def choose(mask, z, w):
    return tf.where(mask, z, w)


@tf.function
def complex128_math(z):
    return z * tf.math.conj(z), tf.abs(z), tf.exp(z) / z, tf.reduce_sum(z)


@tf.function
def unit_circle(n):
    # n points on the unit circle: exp(i * 2 pi k / n).
    k = tf.cast(tf.range(n), tf.float32)
    angle = 2.0 * 3.14159265 * k / tf.cast(n, tf.float32)
    z = tf.exp(tf.complex(tf.zeros_like(angle), angle))
    return tf.math.real(z), tf.math.imag(z), tf.reduce_sum(z)


@tf.function
def angle_of_reals(x):
    # tf.math.angle of a real tensor: pi where it is negative, else 0.
    return tf.math.angle(x), tf.math.real(x), tf.math.imag(x), tf.math.conj(x)


@tf.function
def magnitudes_overflow_safely(z):
    # |3e30 + 4e30i| is 5e30, not inf: abs and division scale before they square.
    return tf.abs(z), z / z


@tf.function
def order_refused(z, w):
    return z < w


@tf.function
def maximum_refused(z, w):
    return tf.maximum(z, w)


@tf.function
def reduce_max_refused(z):
    return tf.reduce_max(z)


@tf.function
def mixed_parts_refused(re, im):
    return tf.complex(re, im)


@tf.function
def relu_refused(z):
    return tf.nn.relu(z)


@tf.function
def prints_summarized(z):
    tf.print(tf.reshape(z, [2, 2]))
    tf.print(z, summarize=-1)
    tf.print(z, summarize=2)
    tf.print(z[:0])
    tf.print(z[0], summarize=0)
    return z


@tf.function
def matmul(a, b):
    return tf.matmul(a, b), a @ b


@tf.function
def matmul_large(n):
    # n x n matrices, large enough for agc's matmul kernel: row sums of the product.
    k = tf.reshape(tf.cast(tf.range(n * n), tf.float32), [n, n]) / tf.cast(n * n, tf.float32)
    a = tf.complex(k, 1.0 - k)
    b = tf.complex(tf.transpose(k), k * 0.5)
    return tf.reduce_sum(a @ b, axis=1)


phase = tf.Variable(tf.constant(1.0, dtype=tf.complex64))


@tf.function
def rotate_variable(step):
    # A complex tf.Variable, turned by `step` radians on each call.
    phase.assign(phase * tf.exp(tf.complex(0.0, step)))
    return phase


@tf.function
def tensor_array_of_powers(z, n):
    ta = tf.TensorArray(tf.complex64, size=n)
    p = tf.ones_like(z)
    for i in tf.range(n):
        ta = ta.write(i, p)
        p = p * z
    return ta.stack()


@tf.function
def explicit_cond(z):
    return tf.cond(tf.math.real(z) > 0.0, lambda: tf.math.conj(z), lambda: -z)
