"""tf.map_fn, tf.scan, tf.foldl, tf.foldr and tf.vectorized_map, as their API documentation
and users write them: each a staged loop over the first dimension of its elems, with
nested elems and outputs, initializers, reverse scans, fn_output_signature, and the
misuses TensorFlow refuses while tracing."""
import tensorflow as tf


# --- tf.map_fn ------------------------------------------------------------------------

@tf.function
def map_square(x):
    # tf.map_fn's documentation: tf.map_fn(fn=lambda t: t * t, elems=...).
    return tf.map_fn(fn=lambda t: t * t, elems=x)


@tf.function
def map_rows_sum(m):
    return tf.map_fn(lambda row: tf.reduce_sum(row), m)


@tf.function
def map_with_signature(x):
    # A different dtype out: fn_output_signature says which.
    return tf.map_fn(lambda t: tf.cast(t > 0, tf.int32), x, fn_output_signature=tf.int32)


@tf.function
def map_tuple_elems(a, b):
    # tf.map_fn's documentation: elems a tuple, fn taking a tuple, one output.
    return tf.map_fn(lambda t: t[0] * t[1], (a, b), fn_output_signature=tf.float32)


@tf.function
def map_two_outputs(x):
    return tf.map_fn(lambda t: (t, -t), (x, x))


@tf.function
def map_dict_signature(x):
    out = tf.map_fn(lambda t: {"sq": t * t, "neg": -t}, x,
                    fn_output_signature={"sq": tf.float32, "neg": tf.float32})
    return out["sq"] + out["neg"]


@tf.function
def map_tensor_spec_signature(m):
    return tf.map_fn(lambda row: row[:2] * 2.0, m,
                     fn_output_signature=tf.TensorSpec([2], tf.float32))


@tf.function
def map_with_staged_if(x):
    def clip(t):
        if t > 2.0:
            t = 2.0 + 0.0 * t
        return t

    return tf.map_fn(clip, x)


@tf.function
def map_closes_over(x, scale):
    return tf.map_fn(lambda t: t * scale, x)


@tf.function
def map_empty_elems(x):
    return tf.map_fn(lambda t: t + 1.0, x)


@tf.function
def map_prints(x):
    def show(t):
        tf.print("item", t)
        return t

    return tf.map_fn(show, x)


@tf.function
def map_scalar_elems(x):
    return tf.map_fn(lambda t: t, x)


@tf.function
def map_structure_differs(x):
    return tf.map_fn(lambda t: (t, t), x)


# --- tf.scan ----------------------------------------------------------------------------

@tf.function
def scan_cumsum(x):
    # tf.scan's documentation: a running sum.
    return tf.scan(lambda a, x: a + x, x)


@tf.function
def scan_with_initializer(x):
    return tf.scan(lambda a, x: a * x, x, initializer=1.0)


@tf.function
def scan_reverse(x):
    return tf.scan(lambda a, x: a + x, x, reverse=True)


@tf.function
def scan_reverse_initializer(x):
    return tf.scan(lambda a, x: a + x, x, initializer=100, reverse=True)


@tf.function
def scan_fibonacci(n):
    # tf.scan's documentation: a tuple accumulator, Fibonacci numbers.
    elems = tf.range(n)
    initializer = (tf.constant(0), tf.constant(1))
    fibonaccis = tf.scan(lambda a, _: (a[1], a[0] + a[1]), elems, initializer)
    return fibonaccis


@tf.function
def scan_multiple_elems(a, b):
    return tf.scan(lambda acc, t: acc + t[0] * t[1], (a, b), initializer=0.0)


@tf.function
def scan_structure_differs(x):
    return tf.scan(lambda a, t: (a, t), x, initializer=0.0)


# --- tf.foldl, tf.foldr -------------------------------------------------------------------

@tf.function
def foldl_sum(x):
    # tf.foldl's documentation: the sum of elems.
    return tf.foldl(lambda a, x: a + x, x)


@tf.function
def foldl_initializer(x):
    return tf.foldl(lambda a, x: a * 10 + x, x, initializer=0)


@tf.function
def foldr_initializer(x):
    return tf.foldr(lambda a, x: a * 10 + x, x, initializer=0)


@tf.function
def foldr_no_initializer(x):
    return tf.foldr(lambda a, x: a - x, x)


@tf.function
def foldl_tuple_accumulator(x):
    total, count = tf.foldl(lambda a, t: (a[0] + t, a[1] + 1), x, initializer=(0.0, 0))
    return total / tf.cast(count, tf.float32)


@tf.function
def foldl_rows(m):
    return tf.foldl(lambda acc, row: tf.maximum(acc, row), m)


@tf.function
def foldl_empty_without_initializer(x):
    return tf.foldl(lambda a, t: a + t, x)


# --- tf.vectorized_map ---------------------------------------------------------------------

@tf.function
def vectorized_outer(x):
    return tf.vectorized_map(lambda t: t * 2.0 + 1.0, x)


@tf.function
def vectorized_new_dtype(x):
    return tf.vectorized_map(lambda t: tf.cast(t, tf.int32) * 3, x)
