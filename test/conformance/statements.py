"""Statements tf.function runs while tracing beyond if/while/for: `with` over TensorFlow's
scope managers (tf.name_scope, tf.device, tf.control_dependencies), whose bodies are
traced as they stand, and a GradientTape, which agc refuses."""
import tensorflow as tf

v = tf.Variable(1.0)


@tf.function
def name_scope_body(x):
    with tf.name_scope("layer"):
        y = x * 2.0
        z = y + 1.0
    return z


@tf.function
def name_scope_as_target(x):
    with tf.name_scope("outer") as scope:
        y = x + len(scope)
    return y


@tf.function
def device_scope(x):
    with tf.device("/CPU:0"):
        y = tf.reduce_sum(x)
    return y


@tf.function
def control_dependencies_order(x):
    a = v.assign_add(x)
    with tf.control_dependencies([a]):
        b = v * 2.0
    return b


@tf.function
def with_around_staged_if(x):
    with tf.name_scope("pick"):
        if tf.reduce_sum(x) > 0:
            y = x
        else:
            y = -x
    return y


@tf.function
def return_inside_with(x):
    with tf.name_scope("early"):
        if x > 0:
            return x * 10
        return x - 1


@tf.function
def with_inside_staged_loop(n):
    i = tf.constant(0)
    total = tf.constant(0)
    while i < n:
        with tf.name_scope("step"):
            total += i
            if total > 10:
                break
        i += 1
    return total


@tf.function
def nested_with(x):
    with tf.name_scope("a"), tf.device("/CPU:0"):
        with tf.name_scope("b") as inner:
            y = x * len(inner)
    return y


@tf.function
def gradient_tape(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def checked_scale(x, k):
    if k <= 0:
        raise ValueError("k must be positive")
    return x * k


@tf.function
def raise_not_reached(x):
    return checked_scale(x, 2)


@tf.function
def raise_reached(x):
    return checked_scale(x, 0)


@tf.function
def raise_in_staged_branch(x):
    if x > 0:
        y = x
    else:
        raise ValueError("negative")
    return y


@tf.function
def try_finally_runs(x):
    log = []
    try:
        y = x * 2
        log.append(1)
    finally:
        log.append(2)
    return y + len(log)


@tf.function
def try_else_runs(x):
    try:
        y = x + 1
    except ValueError:
        y = x - 1
    else:
        y = y * 10
    return y


@tf.function
def try_with_staged_return(x):
    try:
        if x > 0:
            return x
        return -x
    finally:
        pass
