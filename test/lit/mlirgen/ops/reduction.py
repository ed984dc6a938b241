# RUN: %agc --emit=ag %s | FileCheck %s
# Reductions are linalg.reduce from the reduction's identity; argmax a linalg.generic over
# value and index; softmax the stable form; matmul linalg.matmul.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([2, 3], tf.bool)])
def reductions(x, b):
    return tf.reduce_sum(x, axis=1), tf.reduce_max(x), tf.reduce_any(b), tf.reduce_mean(x, axis=0, keepdims=True)
# CHECK-LABEL: func.func @reductions(
# CHECK:       linalg.fill ins(%{{.*}} : f32)
# CHECK:       linalg.reduce ins(%arg0 : tensor<2x3xf32>) {{.*}} dimensions = [1]
# CHECK:         arith.addf
# CHECK:       arith.constant 0xFF800000 : f32
# CHECK:       linalg.reduce ins(%arg0 : tensor<2x3xf32>) {{.*}} dimensions = [0, 1]
# CHECK:         arith.maximumf
# CHECK:       linalg.reduce ins(%arg1 : tensor<2x3xi1>)
# CHECK:         arith.ori
# CHECK:       linalg.reduce ins(%arg0 : tensor<2x3xf32>) {{.*}} dimensions = [0]
# CHECK:       arith.divf
# CHECK:       tensor.expand_shape {{.*}} into tensor<1x3xf32>


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def argmax_softmax(x):
    return tf.argmax(x, axis=1), tf.nn.softmax(x)
# CHECK-LABEL: func.func @argmax_softmax(
# CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
# CHECK:         arith.cmpf ogt
# CHECK:         linalg.index 1
# CHECK:       linalg.reduce
# CHECK:         arith.maximumf
# CHECK:       arith.subf
# CHECK:       math.exp
# CHECK:       linalg.reduce
# CHECK:         arith.addf
# CHECK:       arith.divf
# CHECK:       arith.mulf


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([3, 4], tf.float32)])
def matmul(a, b):
    return tf.matmul(a, b)
# CHECK-LABEL: func.func @matmul(
# CHECK:       linalg.fill
# CHECK:       linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>)
