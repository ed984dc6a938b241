"""The dtypes users pass beyond float32/float64/int32/int64/bool: int8, int16, uint8,
uint16, uint32, uint64, float16 and bfloat16 (images as uint8, mixed precision as float16
and bfloat16), through arithmetic, comparisons, reductions, casts, division, shifts,
printing and staged control flow, with TensorFlow's promotion errors."""
import tensorflow as tf


@tf.function
def arithmetic(x, y):
    return x + y, x - y, x * y, tf.maximum(x, y), tf.minimum(x, y), x // y, x % y


@tf.function
def with_python_numbers(x):
    # Python numbers take the tensor's dtype (and wrap in a narrow integer, as NumPy does).
    return x + 1, x * 3, x - 2


@tf.function
def comparisons(x, y):
    return x < y, x <= y, x > y, x >= y, tf.equal(x, y), x != y


@tf.function
def true_division(x, y):
    # Integers divide in float32 (8, 16 bits) or float64 (32, 64 bits).
    return x / y


@tf.function
def reductions(x):
    return (tf.reduce_sum(x), tf.reduce_max(x), tf.reduce_min(x), tf.reduce_mean(x),
            tf.reduce_prod(x[:2]), tf.argmax(x), tf.argmin(x), tf.reduce_sum(x, axis=0))


@tf.function
def sorting(x):
    return tf.sort(x), tf.argsort(x, direction="DESCENDING"), tf.cumsum(x)


@tf.function
def bit_ops(x, y):
    return (x & y, x | y, x ^ y, tf.bitwise.right_shift(x, y), tf.bitwise.left_shift(x, y),
            ~x, tf.bitwise.invert(y), tf.bitwise.bitwise_xor(x, y))


@tf.function
def shift_operator_refused(x):
    # TensorFlow's tensors have no >> (nor <<): tf.bitwise.right_shift is the function.
    return x >> 1


@tf.function
def casts(x):
    return (tf.cast(x, tf.float32), tf.cast(x, tf.int64), tf.cast(x, tf.uint8),
            tf.cast(x, tf.int8), tf.cast(x, tf.float16), tf.cast(x, tf.bfloat16),
            tf.cast(x, tf.bool), tf.cast(x, tf.uint32))


@tf.function
def float_math(x):
    return (tf.exp(x), tf.math.log(x), tf.sqrt(x), tf.tanh(x), tf.nn.sigmoid(x),
            tf.nn.softmax(x), x * x + 1.5, tf.nn.relu(x - 1.0), tf.abs(-x), tf.nn.softplus(x))


@tf.function
def mixed_precision(x, w):
    # A layer in float16 or bfloat16: matmul, bias, activation, then a float32 loss.
    h = tf.nn.relu(tf.matmul(x, w) + 0.5)
    return h, tf.reduce_mean(tf.cast(h, tf.float32))


@tf.function
def image_to_float(pixels):
    # uint8 images: cast, scale, back.
    scaled = tf.cast(pixels, tf.float32) / 255.0
    return scaled, tf.cast(tf.clip_by_value(scaled * 2.0, 0.0, 1.0) * 255.0, tf.uint8)


@tf.function
def staged_loop(x, n):
    acc = tf.zeros_like(x)
    for _ in tf.range(n):
        acc = acc + x
    if tf.reduce_sum(acc) > 10:
        acc = acc // 2
    return acc


@tf.function
def prints(x):
    tf.print(x, summarize=-1)
    return x


@tf.function
def mixed_dtypes_refused(x, y):
    return x + y


@tf.function
def negative_of_unsigned(x):
    return -x


@tf.function
def unsigned_relu_and_square(x):
    return tf.nn.relu(x), tf.square(x)


@tf.function
def unsigned_division_by_zero(x, y):
    return x // y


@tf.function
def creation(n):
    return (tf.zeros([2], tf.uint8), tf.ones([2], tf.float16), tf.fill([2], tf.constant(7, tf.int8)),
            tf.constant(300, tf.int8), tf.constant(-1, tf.uint8), tf.constant([1.1, 2.2], tf.bfloat16),
            tf.one_hot([0, 2], 3, dtype=tf.uint8))


@tf.function
def range_without_kernel(n):
    # TensorFlow builds the graph, and has no kernel to run it.
    return tf.range(n, dtype=tf.int16)


@tf.function
def integer_matmul(a, b):
    return tf.matmul(a, b)


@tf.function
def moving_elements(x):
    return (tf.gather(x, [2, 0]), tf.reverse(x, [0]), tf.concat([x, x], 0), tf.stack([x, x]),
            tf.where(x > x[0], x, x[0]), tf.tile(x, [2]), tf.pad(x, [[1, 0]]))


@tf.function
def float16_array(x):
    ta = tf.TensorArray(tf.float16, size=2)
    ta = ta.write(0, x)
    ta = ta.write(1, x * 2)
    return ta.stack()


counter = tf.Variable(tf.constant(250, tf.uint8))


@tf.function
def unsigned_variable(step):
    counter.assign_add(step)
    return counter.read_value()


@tf.function
def half_sums(x):
    # float16 and bfloat16 sums accumulate in more than 16 bits, as TensorFlow's do.
    return tf.reduce_sum(x), tf.reduce_mean(x, axis=0), tf.reduce_sum(x[:1])


@tf.function
def casts_out_of_range(x):
    # Floats with no integer of the dtype: NaN, infinities, too large. TensorFlow's Cast
    # kernel (x86-64, its scalar loop) gives the integer indefinite of int32/int64, cuts
    # an int32 to int8..uint16 and an int64 to uint32, and makes uint64 2**63. agc gave
    # 2**64 - 1 for uint64 here (AVX-512's unsigned conversion; LLVM's sequence for other
    # CPUs differs), and 24064 for 3e9 as uint16 (cut from int64): now the same integers
    # on every CPU.
    return (tf.cast(x, tf.int8), tf.cast(x, tf.int16), tf.cast(x, tf.int32), tf.cast(x, tf.int64),
            tf.cast(x, tf.uint8), tf.cast(x, tf.uint16), tf.cast(x, tf.uint32), tf.cast(x, tf.uint64))


@tf.function
def double_to_half(x):
    # A float64 to float16 and bfloat16 through float32, as Eigen converts a double:
    # 1 + 2**-11 + 2**-40 rounds to float32's 1 + 2**-11, a tie, to even: 1 (rounded
    # directly it is float16's 1 + 2**-10). agc rounded once, and `agc run` could not find
    # the __truncdfhf2 LLVM called.
    return tf.cast(x, tf.float16), tf.cast(x, tf.bfloat16)
