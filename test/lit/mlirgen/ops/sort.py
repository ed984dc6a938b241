# RUN: %agc --emit=ag %s | FileCheck %s
# tf.sort / tf.argsort: a stable bottom-up merge sort of each row (runs of 1, 2, 4, ...
# merged into a new buffer per pass, n log n comparisons), not a count of the elements
# before each one (n² comparisons per row).
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def order(x):
    return tf.argsort(x)
# CHECK-LABEL: func.func @order(
# A NaN is a run-time error (TensorFlow's order of NaNs is unspecified).
# CHECK:       linalg.generic
# CHECK:       arith.cmpf ord
# CHECK:       ag.assert {{.*}}tf.argsort: agc does not sort NaN
# CHECK-NOT:   "reduction"
# The passes: while the runs are shorter than a row, each row's pairs of runs are merged.
# CHECK:       scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (index, tensor<?xf32>, tensor<?xindex>)
# CHECK:       arith.cmpi ult
# CHECK:       scf.condition
# CHECK:       scf.for
# CHECK:       scf.for
# CHECK:       scf.for {{.*}} iter_args
# CHECK:       arith.minui
# CHECK:       tensor.extract
# CHECK:       arith.cmpf olt
# CHECK:       tensor.insert
# CHECK:       tensor.insert
# CHECK-NOT:   "reduction"
# CHECK:       arith.index_cast {{.*}} : index to i32
# CHECK:       return
