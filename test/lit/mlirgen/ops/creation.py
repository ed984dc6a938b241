# RUN: %agc --emit=ag %s | FileCheck %s
# New tensors: constants, fills (sizes from tensors checked at run time), eye, range.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def creation(n):
    return tf.constant([1.0, 2.0]), tf.fill([2], 7), tf.ones([n]), tf.eye(2), tf.range(n)
# CHECK-LABEL: func.func @creation(
# CHECK:       arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
# CHECK:       linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<2xi32>)
# CHECK:       ag.assert {{.*}}"{{.*}}creation.py:[[@LINE-4]]:{{[0-9]+}}: dimension 0 of a new tensor would have the negative size {0}"
# CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?xf32>)
# CHECK:       linalg.generic
# CHECK:         linalg.index 0
# CHECK:         linalg.index 1
# CHECK:       ag.assert {{.*}}tf.range
# CHECK:       tensor.generate
