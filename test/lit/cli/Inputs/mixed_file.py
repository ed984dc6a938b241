"""A file as users write them: compilable functions beside a Keras model, a
tf.py_function, a GradientTape, a class and a lambda."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4)])


class Net(tf.keras.Model):
    def call(self, x):
        return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def positive_sum(x):
    s = tf.constant(0.0)
    for v in x:
        if v > 0:
            s += v
    return s


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def predict(x):
    return model(x[tf.newaxis, :])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def through_python(x):
    return tf.py_function(np.sort, [x], tf.float32)


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def gradient(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)
