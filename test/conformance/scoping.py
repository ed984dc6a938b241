"""Loop-variable scoping: names modified but dead, only read, defined before or after."""
import tensorflow as tf


@tf.function
def dead_temp_in_loop(n):
    s = 0
    for i in tf.range(n):
        tmp = i * 2
        s += tmp
    return s


@tf.function
def read_only_in_loop(n, k):
    s = 0
    for i in tf.range(n):
        s += k
    return s


@tf.function
def defined_after_loop(n):
    s = 0
    for i in tf.range(n):
        s += 1
    t = s * 10
    return t


@tf.function
def reassigned_before_use(x):
    y = x
    if x > 0:
        y = x + 1
    y = y * 2
    return y


@tf.function
def loop_uses_outer_python(n, base=5):
    s = tf.constant(0)
    for i in tf.range(n):
        s += base
    return s


@tf.function
def branch_local_only(x):
    if x > 0:
        local = x * 5
        x = local
    else:
        other = x * 7
        x = other
    return x


@tf.function
def loop_var_shadowing(n):
    i = 100
    for i in tf.range(n):
        pass
    return i


@tf.function
def multiple_assignments(x):
    a, b = x, x * 2
    while a < 50:
        a, b = b, a + b
    return a, b


@tf.function
def closure_helper(x):
    def scale(v):
        return v * 3
    return scale(x) + 1


@tf.function
def nested_function_in_loop(n):
    def step(acc, i):
        return acc + i * i
    s = 0
    for i in tf.range(n):
        s = step(s, i)
    return s


@tf.function
def assert_python_holds(x):
    n = 3
    assert n > 2, "n is too small"
    return x * n


@tf.function
def del_in_both_branches(x):
    y = x + 1.0
    if x > 0:
        del y
        z = x
    else:
        del y
        z = -x
    return z


CALLS = 0


def count_call():
    global CALLS
    CALLS += 1
    return CALLS


@tf.function
def nonlocal_counter(x):
    count = 0

    def inc():
        nonlocal count
        count += 1

    inc()
    inc()
    return x + count


@tf.function
def nonlocal_in_closure_returned(x):
    def make():
        total = 0

        def add(k):
            nonlocal total
            total += k
            return total

        return add

    add = make()
    add(2)
    return x * add(3)


@tf.function
def global_written_while_tracing(x):
    count_call()
    count_call()
    return x + CALLS


@tf.function
def global_write_in_staged_branch(x):
    global CALLS
    if x > 0:
        CALLS = 5
    return x


# TensorFlow's tf.function guide ("Python side effects"): a module-level list appended to
# while tracing. (agc once appended to a copy, and the function read the list empty.)
external_list = []


@tf.function
def append_to_global_list(x):
    external_list.append(x)
    return x + len(external_list)


@tf.function
def append_in_helper_keeps_caller_local(x):
    items = [1]

    def helper():
        items = []
        items.append(2)
        return len(items)

    return x + helper() * 10 + len(items)
