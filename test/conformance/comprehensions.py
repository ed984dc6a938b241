"""Comprehensions, generator expressions and the builtins over Python iterables, which
tf.function runs while tracing (AutoGraph leaves them to Python)."""
import tensorflow as tf

WEIGHTS = [0.5, 1.0, 2.0]


@tf.function
def list_of_tensors(x):
    parts = [x * w for w in WEIGHTS]
    return tf.stack(parts)


@tf.function
def filtered(x):
    return tf.stack([x + i for i in range(6) if i % 2 == 0])


@tf.function
def nested_loops(x):
    pairs = [(i, j) for i in range(4) for j in range(i) if (i + j) % 2]
    return x + len(pairs), pairs[-1][0] * 10 + pairs[-1][1]


@tf.function
def generator_in_sum(x):
    return sum(x * k for k in range(1, 4))


@tf.function
def sum_with_start(x):
    return sum([1, 2, 3], 10) + x


@tf.function
def target_does_not_leak(x):
    i = 100
    squares = [i * i for i in range(3)]
    return x + i + squares[-1]


@tf.function
def tuple_targets(x):
    names = ["a", "bb", "ccc"]
    lengths = [k * len(s) for k, s in enumerate(names, start=1)]
    return x * sum(lengths)


@tf.function
def zip_and_reversed(x):
    coeffs = [c * w for c, w in zip(reversed([1, 2, 3]), [10, 20, 30, 40])]
    return x * coeffs[0] + coeffs[1] + coeffs[2]


@tf.function
def any_and_all(x):
    flags = [v > 1 for v in [0, 2, 3]]
    return x + (10 if any(flags) else 0) + (100 if all(flags) else 0)


@tf.function
def min_max_of_generator(x):
    return x * max(v % 5 for v in range(12)) + min(v * v for v in [3, -2, 4])


@tf.function
def starred_display(x):
    head = [1, 2]
    items = [*head, 3, *range(4, 6)]
    return x * len(items) + items[-1]


@tf.function
def comprehension_in_staged_branch(x):
    if tf.reduce_sum(x) > 0:
        y = tf.stack([x * k for k in range(3)])
    else:
        y = tf.stack([x - k for k in range(3)])
    return y


@tf.function
def comprehension_in_staged_loop(n):
    i = tf.constant(0)
    acc = tf.constant(0)
    while i < n:
        acc = acc + sum([i * k for k in range(3)])
        i += 1
    return acc


@tf.function
def list_of_rows(m):
    rows = [m[k] * (k + 1) for k in range(2)]
    return tf.concat(rows, axis=0)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def iterate_tensor_of_unknown_length(x):
    return [v * 2 for v in x]


@tf.function
def tensor_condition_in_comprehension(x):
    return [k for k in range(3) if x > k]
