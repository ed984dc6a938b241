import tensorflow as tf


@tf.function
def mixed(x, flag, h, small):
    if flag:
        y = x * 2.0
    else:
        y = x - 1.0
    return tf.cast(y, tf.float64), tf.logical_not(flag), h + h, -small


@tf.function
def collatz(n):
    steps = tf.constant(0)
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@tf.function
def total(x):
    return tf.reduce_sum(x)


@tf.function
def divide(a, b):
    return a // b
