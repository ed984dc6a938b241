"""Calls to other functions of the module, with Python and tensor arguments."""
import tensorflow as tf

SCALE = 3


def affine(x, a, b=1):
    return x * a + b


def clipped(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def repeat_apply(x, times):
    for _ in range(times):
        x = x * 2
    return x


def count_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@tf.function
def call_affine(x):
    return affine(x, 2), affine(x, 3, b=5)


@tf.function
def call_with_module_constant(x):
    return affine(x, SCALE)


@tf.function
def call_staged_helper(x):
    return clipped(x, tf.constant(0.0), tf.constant(1.0))


@tf.function
def call_python_count(x, times=3):
    return repeat_apply(x, times)


@tf.function
def call_loop_helper(n):
    return count_steps(n)


@tf.function
def call_in_loop(n):
    s = tf.constant(0.0)
    for i in tf.range(n):
        s += affine(tf.cast(i, tf.float32), 0.5)
    return s


@tf.function
def call_tf_function(x):
    return call_affine(x)[0] + 1


@tf.function
def keyword_args(x):
    return affine(b=x, a=2, x=x)


@tf.function
def helper_returns_tuple(x):
    def split(v):
        return v * 2, v * 3
    a, b = split(x)
    return a + b


def make_scaler(k):
    def scale(x):
        return x * k
    return scale


def apply_twice(fn, x):
    return fn(fn(x))


@tf.function
def closure_outlives_its_call(x):
    # scale reads make_scaler's k after make_scaler returned, from inside apply_twice.
    triple = make_scaler(3.0)
    return apply_twice(triple, x)


@tf.function
def closure_reads_late_binding(x):
    # A closure reads its cell when it runs: n is 2.0, then 5.0.
    def shifted():
        return x + n
    n = 2.0
    first = shifted()
    n = 5.0
    return first, shifted()


@tf.function
def closure_over_loop_variable(x):
    total = tf.zeros_like(x)
    for i in tf.range(3):
        def step(v):
            return v + tf.cast(i, x.dtype) * x
        total = step(total)
    return total
