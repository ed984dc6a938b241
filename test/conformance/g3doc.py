"""The examples of AutoGraph's reference pages (tensorflow/python/autograph/g3doc/reference:
control_flow.md), restated as functions with tensor inputs in place of tf.random: what
is staged and what runs as Python, how break, continue and return are lowered, and what
TensorFlow refuses. (The page's buggy_while_py_true_tf_break is in the seeds theme.)"""
import tensorflow as tf


@tf.function
def constant_condition_folds(x):
    # A Python condition is a compile-time constant: only one branch is built.
    k = 1
    if k > 0:
        y = 3 * x
    else:
        y = 5 * x
    return y


class Holder:
    def __init__(self):
        self.b = 0.0


@tf.function
def attribute_as_symbol(x):
    # `a.b` is a symbol AutoGraph carries through tf.cond, as a name would be.
    a = Holder()
    a.b = x
    if a.b < 0:
        a.b = -a.b
    return a.b


@tf.function
def python_value_becomes_tensor(x):
    i = 0
    if tf.greater(x, 0):
        i = 1
    return i


@tf.function
def tensor_while(x, limit):
    n = 0
    while x < limit:
        x = x + 1
        n += 1
    return x, n


@tf.function
def for_over_matrix_rows(m):
    total = tf.zeros_like(m[0])
    for row in m:
        tf.print("iteration:", row)
        total += row
    return total


@tf.function
def for_over_tf_range(n):
    acc = tf.constant(0)
    for i in tf.range(n):
        tf.print("iteration:", i)
        acc += i
    return acc


@tf.function
def list_of_tensors_unrolled_or_stacked(x):
    parts = [x, x + 1, x + 2]
    unrolled = tf.zeros_like(x)
    for p in parts:  # a Python list: three additions in the graph
        unrolled += p
    staged = tf.zeros_like(x)
    for p in tf.stack(parts):  # a tensor: one staged loop
        staged += p
    return unrolled, staged


@tf.function
def condition_type_changes(x):
    i = 0
    while i < 10:
        i = tf.constant(1)
    return x


@tf.function
def while_with_break(i):
    while i < 10:
        if i > 3:
            break
        i += 1
    return i


@tf.function
def for_with_continue(n):
    total = tf.constant(0)
    for i in tf.range(n):
        if i % 3 == 0:
            continue
        total += i
    return total


@tf.function
def return_only_in_staged_if(x):
    if x > 0.5:
        return 1
    return None


@tf.function
def return_inside_staged_while(i):
    while i < 10:
        if i > 3:
            return i * 100
        i += 1
    return i


@tf.function
def return_moves_rest_into_else(i):
    if i > 3:
        return i
    i += 1
    return i * 10


@tf.function
def conditional_expression(x):
    # operators.md: `true_val if cond else false_val` is tf.cond when cond is a tensor.
    return x * 2 if x > 0 else -x


@tf.function
def python_for_with_break(j):
    # operators.md: a Python loop with a break, accumulating into a tensor.
    for i in range(3):
        if i > 2:
            break
        j = j + i
    return j


@tf.function
def builtins_on_tensors(x, n):
    # AutoGraph's int_, float_, len_ and range_: a cast, the first dimension, tf.range.
    total = 0
    for i in range(n):
        total += i
    return int(x), float(n), len(x), total


@tf.function
def bool_of_tensor(x):
    return bool(x)
