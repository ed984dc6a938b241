"""Loops: while on tensors, for over tf.range, tensors and Python ranges, zero passes,
nesting, loops carrying several values."""
import tensorflow as tf


@tf.function
def count_down(n):
    steps = 0
    while n > 0:
        n -= 1
        steps += 1
    return steps


@tf.function
def sum_range(n):
    s = 0
    for i in tf.range(n):
        s += i
    return s


@tf.function
def sum_range_step(start, stop):
    s = tf.constant(0)
    for i in tf.range(start, stop, 3):
        s += i
    return s


@tf.function
def sum_python_range(x):
    for i in range(4):
        x = x + i
    return x


@tf.function
def iterate_tensor(v):
    total = tf.constant(0.0)
    for e in v:
        total += e * e
    return total


@tf.function
def iterate_rows(m):
    acc = tf.zeros([3])
    for row in m:
        acc = acc + row
    return acc


@tf.function
def nested_loops(n, m):
    s = 0
    for i in tf.range(n):
        for j in tf.range(m):
            s += i * j
    return s


@tf.function
def while_two_vars(x):
    a = x
    b = tf.constant(1.0)
    while a > 1.0:
        a = a / 2.0
        b = b * 2.0
    return a, b


@tf.function
def fib(n):
    a = 0
    b = 1
    for _ in tf.range(n):
        a, b = b, a + b
    return a


@tf.function
def loop_python_list(x):
    for k in [1, 10, 100]:
        x = x + k
    return x


@tf.function
def while_tensor_cond_python_body(x, k=2):
    while x < 100:
        x = x * k
    return x


@tf.function
def loop_vector_state(v, n):
    for _ in tf.range(n):
        v = v * 0.5 + 1.0
    return v


@tf.function
def while_and_counter(x):
    i = 0
    while i < 10 and x > 1:
        x = x // 2
        i += 1
    return x, i


@tf.function
def product_loop(n):
    p = tf.constant(1, dtype=tf.int64)
    i = tf.constant(1, dtype=tf.int64)
    while i <= n:
        p *= i
        i += 1
    return p


@tf.function
def nested_python_in_staged(n):
    s = tf.constant(0)
    for i in tf.range(n):
        for k in range(3):
            s += i + k
    return s


@tf.function
def loop_with_if(n):
    evens = 0
    odds = 0
    for i in tf.range(n):
        if i % 2 == 0:
            evens += 1
        else:
            odds += 1
    return evens, odds


@tf.function
def loop_zero_passes(x):
    for i in tf.range(0):
        x = x + 1
    return x


@tf.function
def unrolled_enumerate_sum(x):
    s = x
    for i in range(1, 6):
        s = s * i
    return s


@tf.function
def while_float64(x):
    while x < 1000.0:
        x = x * 1.5
    return x


@tf.function
def iterate_range_over_shape(m):
    s = tf.constant(0.0)
    for i in tf.range(tf.shape(m)[0]):
        s += tf.reduce_sum(m[i])
    return s


@tf.function
def python_for_else(x):
    for k in range(4):
        if k == 10:
            break
    else:
        x = x + 100
    for k in range(4):
        if k == 2:
            break
    else:
        x = x + 1000
    return x


@tf.function
def python_while_else(x):
    n = 0
    while n < 3:
        n += 1
    else:
        x = x * 2
    return x + n


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def staged_while_else(n):
    i = tf.constant(0)
    while i < n:
        i += 1
    else:
        i = i * 10
    return i
