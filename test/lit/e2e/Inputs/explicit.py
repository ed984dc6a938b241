import tensorflow as tf


@tf.function
def last_square(v):
    for x in v:
        if x > 0:
            pass
        sq = x * x
    return sq


@tf.function
def pick(x):
    return tf.case([(x < 0, lambda: -1), (x > 100, lambda: 1)])


@tf.function
def one_of(x):
    return tf.case([(x > 0, lambda: 1), (x > 1, lambda: 2)], default=lambda: 3, exclusive=True)


@tf.function
def count_to(n):
    return tf.while_loop(lambda i: i < n, lambda i: i + 1, [0], maximum_iterations=4)
