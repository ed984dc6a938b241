# RUN: %agc --emit=ag %s | FileCheck %s
# Transposes, reshapes, joins and the shape of a tensor.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def shapes(a):
    return tf.transpose(a), tf.reshape(a, [3, 2]), tf.expand_dims(a, 0), tf.concat([a, a], axis=0), tf.stack([a, a]), tf.shape(a)
# CHECK-LABEL: func.func @shapes(
# CHECK:       linalg.transpose ins(%arg0 : tensor<2x3xf32>) {{.*}} permutation = [1, 0]
# CHECK:       tensor.collapse_shape
# CHECK:       tensor.expand_shape {{.*}} into tensor<3x2xf32>
# CHECK:       tensor.expand_shape {{.*}} into tensor<1x2x3xf32>
# CHECK:       tensor.concat dim(0) %arg0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
# CHECK:       tensor.concat dim(0) {{.*}} -> tensor<2x2x3xf32>
# CHECK:       tensor.from_elements %{{.*}}, %{{.*}} : tensor<2xi32>
