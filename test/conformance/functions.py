"""Functions as values, as tf.function runs them while tracing: lambdas, nested functions
and closures, defaults evaluated where the function is defined, keyword-only parameters,
*args and f(*xs), and the builtins that take functions (sorted, map, filter)."""
import tensorflow as tf

OFFSET = 1.0
SCALES = [1.0, 2.0, 3.0]


def scaled_by(k, bias=OFFSET):
    # `bias` is OFFSET as it is when the def runs, not when the function is called.
    return lambda v: v * k + bias


OFFSET = 100.0


def compose(f, g):
    return lambda v: f(g(v))


def total(*xs, start=0.0):
    s = start
    for x in xs:
        s = s + x
    return s


def clip(x, *, lo, hi):
    return tf.minimum(tf.maximum(x, lo), hi)


def apply_twice(f, x):
    return f(f(x))


@tf.function
def lambda_in_variable(x):
    double = lambda v: v * 2
    return double(x) + double(1.0)


@tf.function
def lambda_with_default(x):
    f = lambda v, k=3: v * k
    return f(x), f(x, 5), f(x, k=7)


@tf.function
def lambda_closes_over_local(x):
    k = tf.reduce_sum(x)
    shift = lambda v: v - k
    return shift(x)


@tf.function
def lambda_returned_by_helper(x):
    return scaled_by(2.0)(x)


@tf.function
def default_read_at_definition(x):
    return scaled_by(1.0)(x) + OFFSET


@tf.function
def composed_lambdas(x):
    f = compose(lambda v: v + 1, lambda v: v * 10)
    return f(x)


@tf.function
def lambda_as_argument(x):
    return apply_twice(lambda v: v * v + 1, x)


@tf.function
def tf_function_as_value(x):
    fs = [tf.abs, tf.square, lambda v: -v]
    return [f(x) for f in fs]


@tf.function
def nested_def_with_default(x):
    n = 2

    def power(v, times=n):
        out = v
        for _ in range(times - 1):
            out = out * v
        return out

    n = 5
    return power(x), power(x, n)


@tf.function
def closure_sees_later_binding(x):
    def read():
        return x * k

    k = 3.0
    return read()


@tf.function
def star_args(x):
    return total(x, x * 2, x * 3), total(start=x), total(*[x, x], start=1.0)


@tf.function
def keyword_only(x):
    return clip(x, lo=-1.0, hi=1.0)


@tf.function
def keyword_only_missing(x):
    return clip(x, -1.0, 1.0)


@tf.function
def star_call_of_tuple(x):
    args = (x, 2.0)
    return tf.maximum(*args)


@tf.function
def sorted_with_key(x):
    weights = sorted([3, -1, 2], key=lambda v: v * v)
    return x * weights[0] + weights[2]


@tf.function
def sorted_reverse_stable(x):
    pairs = sorted([(1, "a"), (0, "b"), (1, "c")], key=lambda p: p[0], reverse=True)
    return x * pairs[0][0] + len(pairs[1][1])


@tf.function
def map_and_filter(x):
    odd = list(filter(lambda v: v % 2 == 1, range(7)))
    squares = list(map(lambda v: v * v, odd))
    return x + sum(squares)


@tf.function
def map_over_tensors(x):
    parts = list(map(lambda k: x * k, [1.0, 2.0]))
    return tf.stack(parts)


@tf.function
def lambda_in_staged_branch(x):
    f = lambda v: v * 2
    g = lambda v: v - 1
    if tf.reduce_sum(x) > 0:
        y = f(x)
    else:
        y = g(x)
    return y


@tf.function
def lambda_in_staged_loop(n):
    step = lambda v: v * 2 + 1
    i = tf.constant(0)
    acc = tf.constant(0)
    while i < n:
        acc = step(acc)
        i += 1
    return acc


@tf.function
def recursion_on_python_values(x):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)

    return x * fact(5)


@tf.function
def wrong_arity_lambda(x):
    f = lambda a, b: a + b
    return f(x)


@tf.function
def recursion_without_end(x):
    def forever(k):
        return forever(k + 1)

    return x + forever(0)


def as_tensor(v):
    if isinstance(v, tf.Tensor):
        return v
    if isinstance(v, (int, float)):
        return tf.constant(v, tf.float32)
    return tf.constant(len(v), tf.float32)


@tf.function
def isinstance_dispatch(x):
    flags = [isinstance(True, int), isinstance(1, float), isinstance("s", str),
             isinstance([1], (tuple, list))]
    return as_tensor(x) + as_tensor(2) + as_tensor("abc") + sum(flags)
