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


# Empty tensors, as TensorFlow 2.21 prints them: `[]` when the first dimension is 0, `[`,
# a line break and ` ...]` when a later one is, nothing at all for bool; and summarize=0.
@tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32),
                              tf.TensorSpec(shape=[None, None, None], dtype=tf.int32)])
def print_empty(m, t):
    tf.print("m:", m, "t:", t, "bool:", m > 0.0, "end")
    return m


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int64)])
def print_summarize_zero(x):
    tf.print(x, x[0], tf.constant(True), summarize=0)
    tf.print(tf.reshape(x, [1, -1]), summarize=1)
    return x
