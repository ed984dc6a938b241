# RUN: %agc --emit=ag %s | FileCheck %s
# Segment reductions and tensor_scatter_nd_*: each row combined into its place in order,
# one scf.for over the rows (TensorFlow's CPU kernels' order, so float sums round alike),
# not a [segments, rows] mask reduced (segments x rows work, summed in another order).
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int32)])
def segment_sum(data, ids):
    return tf.math.unsorted_segment_sum(data, ids, 100)
# CHECK-LABEL: func.func @segment_sum(
# CHECK:       ag.assert {{.*}}segment_ids is out of range [0, num_segments)
# CHECK:       ag.assert {{.*}}data.shape does not start with segment_ids.shape
# CHECK:       [[N:%[0-9]+]] = arith.minui
# CHECK:       scf.for %{{.*}} = %{{.*}} to [[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<100xf32>)
# CHECK:       [[ID:%.*]] = tensor.extract %arg1[
# A negative id names no segment: skipped.
# CHECK:       arith.cmpi sge
# CHECK:       scf.if
# CHECK:       tensor.extract %[[ACC]]
# CHECK:       arith.addf
# CHECK:       tensor.insert
# CHECK-NOT:   linalg.reduce
# CHECK:       return


@tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32), tf.TensorSpec([None, 1], tf.int32),
                              tf.TensorSpec([None, 3], tf.float32)])
def scatter_rows(t, indices, updates):
    return tf.tensor_scatter_nd_add(t, indices, updates)
# CHECK-LABEL: func.func @scatter_rows(
# CHECK:       ag.assert {{.*}}indices do not index into the shape of 'tensor'
# CHECK:       scf.for {{.*}} -> (tensor<4x3xf32>)
# CHECK:       scf.if
# The row there is combined in place: the generic's destination is its slice.
# CHECK:       [[THERE:%.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
# CHECK:       [[ROW:%.*]] = tensor.extract_slice
# CHECK:       linalg.generic {{.*}} ins([[ROW]] : tensor<3xf32>) outs([[THERE]] : tensor<3xf32>)
# CHECK:       arith.addf %out, %in
# CHECK:       tensor.insert_slice
# CHECK-NOT:   linalg.reduce
# CHECK:       return
