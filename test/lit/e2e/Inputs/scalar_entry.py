"""Functions whose inputs and results are all 0-d, which get a scalar entry point
(model_f_scalar) beside the tensor one."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def double(a):
    return a + a


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def halve(x):
    return x * 0.5


@tf.function(input_signature=[tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.int64)])
def divide(a, b):
    return a // b


@tf.function(input_signature=[tf.TensorSpec([], tf.bool)])
def negate(p):
    return tf.logical_not(p)


@tf.function(input_signature=[tf.TensorSpec([], tf.float64), tf.TensorSpec([], tf.float64)])
def sum_and_difference(a, b):
    return a + b, a - b


@tf.function(input_signature=[tf.TensorSpec([], tf.uint8)])
def twice(u):
    return u, u


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def total(x):
    return tf.reduce_sum(x)
