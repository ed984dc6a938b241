# RUN: %agc --emit=ag %s | FileCheck %s
# tf.searchsorted: each value's position found by the probes of TensorFlow's kernel
# (std::upper_bound for side="right": while len > 0, half = len / 2, then the left half
# or past the middle), so an unsorted row gives TensorFlow's answer; not a count of the
# smaller elements (a [rows, values, sequence] comparison).
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def bins(edges, x):
    return tf.searchsorted(edges, x, side="right")
# CHECK-LABEL: func.func @bins(
# CHECK:       scf.for
# CHECK:       scf.for
# CHECK:       scf.while
# CHECK:       arith.cmpi ugt
# CHECK:       scf.condition
# CHECK:       arith.shrui
# CHECK:       tensor.extract
# CHECK:       arith.cmpf olt
# CHECK:       arith.select
# CHECK:       tensor.insert
# CHECK-NOT:   linalg.reduce
# CHECK:       return
