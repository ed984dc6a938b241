"""Programs TensorFlow refuses while tracing: agc must refuse them at compile time."""
import tensorflow as tf


@tf.function
def one_branch_only(x):
    if x > 0:
        y = x * 2
    return y


# TensorFlow 2.21 accepts this one (loop_semantics.py has more): it starts acc as zeros of
# the type one iteration gives it and checks when the loop runs that it ran at least once.
@tf.function
def undefined_before_loop(n):
    for i in tf.range(n):
        acc = i
    return acc


@tf.function
def dtype_changes_in_loop(x):
    while x < 10:
        x = tf.cast(x, tf.float32) * 2.0
    return x


@tf.function
def shape_changes_in_loop(x):
    while tf.reduce_sum(x) < 10:
        x = tf.concat([x, x], axis=0)
    return x


@tf.function
def tensor_as_python_bool(x):
    for i in range(3):
        if x > i:
            break
    return x


@tf.function
def branch_dtype_mismatch(x):
    if x > 0:
        y = tf.constant(1)
    else:
        y = tf.constant(1.0)
    return y


@tf.function
def add_mismatched_dtypes(a, b):
    return a + b


@tf.function
def return_in_staged_loop(n):
    for i in tf.range(n):
        if i > 2:
            return i
    return n


@tf.function
def unknown_tf_function(x):
    return tf.no_such_function(x)


@tf.function
def undefined_name(x):
    return x + not_defined


@tf.function
def while_true_tensor_break(x):
    while True:
        if x > 3:
            break
        x += 1
    return x


@tf.function
def wrong_arity(x):
    return tf.maximum(x)


@tf.function
def assert_on_tensor(x):
    # TensorFlow 2.21 does not stage assert statements (once agc dropped this one).
    assert x > 0, "x must be positive"
    return x + 1


@tf.function
def assert_python_fails(x):
    n = 3
    assert n < 2, "n is too large"
    return x + n
