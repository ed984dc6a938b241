# Complex tensors: what TensorFlow has no kernel or no meaning for is refused where it is
# written, and so is what agc does not compile for complex numbers yet.
# RUN: not %agc compile %s --function floor_division -o %t.o 2>&1 | FileCheck %s --check-prefix=FLOORDIV
# RUN: not %agc compile %s --function ordered -o %t.o 2>&1 | FileCheck %s --check-prefix=ORDER
# RUN: not %agc compile %s --function cumulative -o %t.o 2>&1 | FileCheck %s --check-prefix=CUMSUM
# RUN: not %agc compile %s --function made_by_fill -o %t.o 2>&1 | FileCheck %s --check-prefix=RANGE
# RUN: not %agc compile %s --function mixed_parts -o %t.o 2>&1 | FileCheck %s --check-prefix=PARTS
# RUN: not %agc compile %s --function composite_norm -o %t.o 2>&1 | FileCheck %s --check-prefix=NORM
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([2], tf.complex64)] * 2)
def floor_division(z, w):
    return z // w
# TensorFlow builds the graph and fails when it runs (no FloorDiv kernel for complex64).
# FLOORDIV: complex-refusals.py:[[@LINE-2]]:12: error: cannot compute FloorDiv on complex64 tensors: TensorFlow has no kernel for it
# FLOORDIV-NEXT: return z // w
# FLOORDIV-NEXT: ^~~~~~


@tf.function(input_signature=[tf.TensorSpec([2], tf.complex128)] * 2)
def ordered(z, w):
    return z < w
# ORDER: complex-refusals.py:[[@LINE-1]]:12: error: '<' is not defined on complex128 tensors (complex numbers have no order); compare tf.math.real or tf.abs of them


@tf.function(input_signature=[tf.TensorSpec([3], tf.complex64)])
def cumulative(z):
    return tf.cumsum(z)
# CUMSUM: complex-refusals.py:[[@LINE-1]]:12: error: tf.cumsum() of a complex64 tensor of shape (3,) is not supported by agc (complex tensors: arithmetic, ==, exp/log/sqrt/trigonometry, abs, sums and products, tf.complex/real/imag/conj/angle, casts, shapes)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def made_by_fill(n):
    return tf.range(n, dtype=tf.complex64)
# RANGE: complex-refusals.py:[[@LINE-1]]:12: error: tf.range() making a complex64 tensor of shape (None,) is not supported by agc


@tf.function(input_signature=[tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float64)])
def mixed_parts(re, im):
    return tf.complex(re, im)
# PARTS: complex-refusals.py:[[@LINE-1]]:12: error: TypeError: the `real` and `imag` components have incorrect types: float32 float64. They must be consistent, and one of [tf.float32, tf.float64]


# TensorFlow's composites treat complex numbers their own way (|z| in tf.norm and
# reduce_euclidean_norm): they are refused rather than computed as for real numbers.
@tf.function(input_signature=[tf.TensorSpec([3], tf.complex64)])
def composite_norm(z):
    return tf.math.reduce_euclidean_norm(z)
# NORM: complex-refusals.py:[[@LINE-1]]:12: error: tf.math.reduce_euclidean_norm() of a complex64 tensor of shape (3,) is not supported by agc
