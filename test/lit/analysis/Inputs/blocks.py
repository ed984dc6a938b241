"""Functions whose staged blocks carry different kinds of names, for the analysis tests:
outputs, input-only names, names modified but dead, names only read, nested blocks,
loops carrying tuples, nested functions, del, and augmented assignment."""
import tensorflow as tf


@tf.function
def dead_temp(x):
    # t is bound in the loop but never read after an iteration: not carried.
    while x > 0:
        t = x * 2
        x = t - 3
    return x


@tf.function
def input_only(a, b):
    # b is read and rebound in the branch but not needed after it: input-only.
    if a > 0:
        t = b
        b = t * 2
        a = a + b
    return a


@tf.function
def one_branch(x):
    y = 0
    if x > 0:
        y = 1
    return y


@tf.function
def both_branches(x):
    if x > 0:
        y = x
        z = 1
    else:
        y = -x
        z = 2
    return y + z


@tf.function
def nested_loops(n):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j < i:
            total += j
            j += 1
        i += 1
    return total


@tf.function
def tuple_state(n):
    a, b = 0, 1
    for _ in tf.range(n):
        a, b = b, a + b
    return a


@tf.function
def read_only_in_loop(x, k):
    s = x
    for i in tf.range(3):
        s = s + k * tf.cast(i, tf.float32)
    return s


@tf.function
def elif_chain(x):
    r = 0
    if x < 0:
        r = -1
    elif x == 0:
        r = 0
    else:
        r = 1
    return r


@tf.function
def closure(x):
    scale = 2.0
    if x > 0:
        def helper(v):
            return v * scale
        x = helper(x)
    return x


@tf.function
def continue_and_break(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if i > 7:
            break
        s += i
    return s

