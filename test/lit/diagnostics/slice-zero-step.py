# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A slice step of zero is Python's ValueError, on a tensor and on a Python list alike;
# a negative step is a slice that walks backwards (shapes.negative_steps in the
# conformance suite), no error.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[5], dtype=tf.int32)])
def f(x):
    k = 0
    return x[::-1], x[1:4:k]
# CHECK:      {{.*}}slice-zero-step.py:[[@LINE-1]]:23: error: slice step cannot be zero
# CHECK-NEXT:     return x[::-1], x[1:4:k]
# CHECK-NEXT:                       ^~~~~


@tf.function
def g():
    k = 0
    return [1, 2, 3][::-1], [1, 2, 3][::k]
# CHECK-NEXT: {{.*}}slice-zero-step.py:[[@LINE-1]]:41: error: ValueError: slice step cannot be zero
# CHECK-NEXT:     return [1, 2, 3][::-1], [1, 2, 3][::k]
# CHECK-NEXT:                                          ^
# CHECK-NOT:  {{.*}}error:{{.*}}
