# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Classes and f-strings are Python that tracing runs; what agc cannot run is refused where
# it is traced, located, with the reason.
import tensorflow as tf


class Layer(tf.keras.layers.Layer):
    pass


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def keras_base(x):
    return Layer()(x)
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-1]]:12: error: 'Layer' cannot be used in compiled code: agc could not evaluate its definition at the top level of the file
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-8]]:13: note: Keras ('tf.keras.layers.Layer') is not supported by agc: a layer or model is a Python object whose weights and calls agc cannot compile ahead of time
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-9]]:13: note: derive from tf.Module, create the tf.Variables in __init__, and compute with TensorFlow ops


class Base:
    pass


class Derived(Base, int):
    pass


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def builtin_base(x):
    return Derived()
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-1]]:12: error: 'Derived' cannot be used in compiled code: agc could not evaluate its definition at the top level of the file
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-8]]:21: note: 'Derived' derives from a Python builtin, which agc does not support as a base class
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-9]]:21: note: agc supports plain classes, their subclasses and tf.Module


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def self_documenting(x):
    tf.print(f"{x=}")
    return x
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-2]]:16: error: self-documenting f-string fields ('{x=}') are not supported by agc


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def nested_spec(x):
    width = 5
    tf.print(f"{3.5:>{width}}")
    return x
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-2]]:20: error: replacement fields inside an f-string's format spec are not supported by agc


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def spec_on_tensor(x):
    tf.print(f"{x:.2f}")
    return x
# CHECK:      {{.*}}class-and-fstring-refusals.py:[[@LINE-2]]:17: error: TypeError: unsupported format string passed to Tensor.__format__
