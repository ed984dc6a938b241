# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# The branches of tf.cond must give one structure and dtypes: the error is at the call,
# with notes at the functions that differ.
import tensorflow as tf


def as_int():
    return 1


def as_float():
    return 2.5


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    return tf.cond(x > 0, as_int, as_float)
# CHECK:      {{.*}}explicit-cond-branches.py:[[@LINE-1]]:12: error: the branches of tf.cond must return values of the same dtypes: true_fn returns an int32 tensor of shape (), false_fn a float32 tensor of shape ()
# CHECK-NEXT:     return tf.cond(x > 0, as_int, as_float)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}explicit-cond-branches.py:7:1: note: true_fn is defined here
# CHECK:      {{.*}}explicit-cond-branches.py:11:1: note: false_fn is defined here
