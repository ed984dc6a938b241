# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# x.shape is a tf.TensorShape (rank, as_list(), ...: shapes.tensor_shape_methods in the
# conformance suite); a tuple the program writes is not, as in Python.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[2, 3], dtype=tf.float32)])
def f(x):
    return tf.reshape(x, (3, 2).as_list())
# CHECK:      {{.*}}tuple-not-a-tensorshape.py:[[@LINE-1]]:33: error: a Python tuple has no attribute 'as_list'
# CHECK-NEXT:     return tf.reshape(x, (3, 2).as_list())
# CHECK-NEXT:                                 ^~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
