"""tf.print: strings and tensors, sep, end, output streams, elision, inside loops."""
import sys

import tensorflow as tf


@tf.function
def print_scalar(x):
    tf.print(x)
    return x


@tf.function
def print_mixed(x, n):
    tf.print("x =", x, "n:", n, 42, 1.5)
    return n


@tf.function
def print_sep_end(x):
    tf.print("a", x, "b", sep="|", end="!\n")
    return x


@tf.function
def print_long(n):
    tf.print(tf.range(n))
    return n


@tf.function
def print_matrix(m):
    tf.print(m)
    tf.print(m, summarize=1)
    return m


@tf.function
def print_in_loop(n):
    for i in tf.range(n):
        tf.print("step", i)
    return n


@tf.function
def print_in_branch(x):
    if x > 0:
        tf.print("positive", x)
    else:
        tf.print("non-positive", x)
    return x


@tf.function
def print_floats(x):
    tf.print(x)
    tf.print(x * 1e10)
    return x


@tf.function
def print_stdout(x):
    tf.print(x, output_stream=sys.stderr)
    return x


@tf.function
def print_bool_int64(b, k):
    tf.print(b, k)
    return k


@tf.function
def print_3d(t):
    tf.print(t)
    return t
