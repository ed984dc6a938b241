# RUN: %agc --emit=ag %s | FileCheck %s
# Subscripts: a slice is tensor.extract_slice; an index known only at run time is checked
# against the size before the element is read.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32), tf.TensorSpec([], tf.int32)])
def indexing(x, i):
    return x[1:3], x[i], x[:, 0]
# CHECK-LABEL: func.func @indexing(
# CHECK:       tensor.extract_slice %arg0[1, 0] [2, 3] [1, 1] : tensor<4x3xf32> to tensor<2x3xf32>
# CHECK:       [[I:%[0-9]+]] = ag.assert {{.*}}"{{.*}}indexing.py:[[@LINE-3]]:22: index {0} is out of bounds for dimension 0, of size {1}"
# CHECK:       tensor.extract_slice %arg0[[[I]], 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
# CHECK:       tensor.extract_slice %arg0[0, %{{.*}}] [4, 1] [1, 1] : tensor<4x3xf32> to tensor<4xf32>
