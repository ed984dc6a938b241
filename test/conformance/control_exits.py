"""break, continue and return in staged loops and under staged conditions."""
import tensorflow as tf


@tf.function
def first_multiple(n, k):
    found = tf.constant(-1)
    for i in tf.range(1, n):
        if i % k == 0:
            found = i
            break
    return found


@tf.function
def sum_skip_multiples(n):
    s = 0
    for i in tf.range(n):
        if i % 3 == 0:
            continue
        s += i
    return s


@tf.function
def while_break(x):
    i = 0
    while i < 100:
        if x < 1:
            break
        x = x // 3
        i += 1
    return i


@tf.function
def while_true_break(n):
    i = tf.constant(0)
    while tf.constant(True):
        i += 1
        if i * i > n:
            break
    return i


@tf.function
def break_and_continue(n):
    s = 0
    for i in tf.range(n):
        if i % 2 == 0:
            continue
        if i > 11:
            break
        s += i
    return s


@tf.function
def continue_in_while(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 4 == 0:
            continue
        s += i
    return s


@tf.function
def return_after_loop(x):
    while x > 1:
        x = x - 2
    if x == 0:
        return tf.constant(True)
    return tf.constant(False)


@tf.function
def guarded_tail(x):
    if x < 0:
        return x * 0
    y = x * 2
    if y > 10:
        return y - 10
    return y


@tf.function
def nested_break(n):
    total = 0
    for i in tf.range(n):
        for j in tf.range(n):
            if j > i:
                break
            total += 1
    return total


@tf.function
def break_in_python_loop_static(x):
    for k in range(10):
        if k == 3:
            break
        x = x + k
    return x


@tf.function
def unconditional_break(x):
    for i in tf.range(5):
        x = x + i
        break
    return x


@tf.function
def search_sorted(v, target):
    pos = tf.constant(0)
    for e in v:
        if e >= target:
            break
        pos += 1
    return pos


@tf.function
def early_return_in_branch_nested(x, y):
    if x > 0:
        if y > 0:
            return x + y
        return x - y
    return -x
