"""Python ints evaluated while tracing: exact 64-bit results, Python's rounding of // and
%, powers, shifts, and the dtype a Python int gets as a tensor (int32, or int64 when int32
cannot hold it; an explicit int32 wraps, as TensorFlow's conversion does)."""
import tensorflow as tf


@tf.function
def floor_div_mod_signs():
    return (-7) // 2, (-7) % 2, 7 // -2, 7 % -2, -7 // -2, -7 % -2


@tf.function
def big_powers():
    return tf.constant(3 ** 39), tf.constant(2 ** 62 + (2 ** 62 - 1)), tf.constant(1 ** 10 ** 14)


@tf.function
def int64_extremes():
    lo = -2 ** 62 * 2
    return tf.constant(lo), tf.constant(lo // 1), tf.constant(lo % -1), tf.constant(-(lo + 1))


@tf.function
def shifts():
    return tf.constant(1 << 62), tf.constant(-1 << 40), tf.constant(-5 >> 1), tf.constant(5 >> 200)


@tf.function
def literal_dtypes():
    return tf.constant(2 ** 31), tf.constant([1, 2 ** 40]), tf.constant(2 ** 31 - 1), tf.constant([1, 2.5])


@tf.function
def int32_wraps():
    return tf.constant(2 ** 31, dtype=tf.int32), tf.constant(-2 ** 31 - 1, dtype=tf.int32)


@tf.function
def tensor_plus_big_int(x):
    return x * (2 ** 40 + 1)


@tf.function
def range_length_extremes():
    return len(range(-2 ** 62, 2 ** 62, 2 ** 61)), len(range(2 ** 62 + (2 ** 62 - 1), -2 ** 62 * 2, -2 ** 62))


@tf.function
def int_of_float():
    return int(-3.9), int(1e18), int(2.5e-300)


@tf.function
def beyond_int64():
    return tf.constant(2 ** 63 - 1), tf.constant(-2 ** 63)


@tf.function
def numbers_from_strings(x):
    return x + float("inf"), x * float(" -1.5 "), x + float("NaN"), tf.constant(int("-42")), float("-Infinity")
