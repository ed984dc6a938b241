"""Conditionals: staged and static ifs, elif chains, early returns, nesting."""
import tensorflow as tf


@tf.function
def abs_staged(x):
    if x < 0:
        y = -x
    else:
        y = x
    return y


@tf.function
def clamp_elif(x):
    if x < -1.0:
        r = tf.constant(-1.0)
    elif x > 1.0:
        r = tf.constant(1.0)
    else:
        r = x
    return r


@tf.function
def sign_chain(x):
    if x > 0:
        s = 1
    elif x < 0:
        s = -1
    else:
        s = 0
    return s


@tf.function
def static_flag(x, scale=True):
    if scale:
        x = x * 2
    return x


@tf.function
def static_mode(x, mode="double"):
    if mode == "double":
        return x * 2
    elif mode == "square":
        return x * x
    return x


@tf.function
def early_return(x):
    if x > 10:
        return x - 10
    return x + 10


@tf.function
def both_return(x):
    if tf.reduce_sum(x) > 0:
        return x * 2.0
    else:
        return x / 2.0


@tf.function
def nested_ifs(x, y):
    if x > 0:
        if y > 0:
            q = 1
        else:
            q = 4
    else:
        if y > 0:
            q = 2
        else:
            q = 3
    return q


@tf.function
def if_without_else(x):
    y = x
    if x > 5:
        y = x * 10
    return y


@tf.function
def modify_two(x):
    a = x
    b = x * 2
    if x > 0:
        a = a + 1
        b = b - 1
    return a, b


@tf.function
def static_inside_staged(x, n=3):
    if x > 0:
        if n > 2:
            x = x + n
        else:
            x = x - n
    return x


@tf.function
def cond_on_reduce(v):
    if tf.reduce_any(v > 3):
        out = tf.reduce_max(v)
    else:
        out = tf.reduce_min(v)
    return out


@tf.function
def return_in_elif(x):
    if x < 0:
        return tf.constant(-1)
    elif x == 0:
        return tf.constant(0)
    elif x < 10:
        return tf.constant(1)
    return tf.constant(2)


@tf.function
def python_value_merge(x):
    if x > 0:
        k = 3
    else:
        k = 5
    return x * k


@tf.function
def cond_vector_result(x):
    if x[0] > x[1]:
        r = tf.stack([x[0], x[1]])
    else:
        r = tf.stack([x[1], x[0]])
    return r


@tf.function
def dead_branch_local(x):
    if x > 0:
        tmp = x * 3
        x = tmp + 1
    return x


@tf.function
def static_none_check(x, bias=None):
    if bias is not None:
        x = x + bias
    return x


@tf.function
def cond_float64(x):
    if x > 0.5:
        y = tf.sqrt(x)
    else:
        y = x * x
    return y


@tf.function
def cond_bool_output(x):
    if x > 0:
        b = x > 5
    else:
        b = x < -5
    return b


@tf.function
def cond_in_python_loop(x):
    for k in range(3):
        if x > k:
            x = x - 1
    return x
