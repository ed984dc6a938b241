# RUN: %agc --emit=ag %s | FileCheck %s
# tf.print is ag.print; a tf.debugging assertion an ag.assert on the reduced condition.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([3], tf.int32)])
def effects(x):
    tf.print("x:", x, summarize=2)
    tf.debugging.assert_positive(x, message="must be positive")
    return x
# CHECK-LABEL: func.func @effects(
# CHECK:       ag.print %arg0 : tensor<3xi32> {end = "\0A", items = ["x:", 0], sep = " ", stream = "stderr", summarize = 2 : i64}
# CHECK:       linalg.generic
# CHECK:         arith.cmpi sgt
# CHECK:       linalg.reduce
# CHECK:         arith.andi
# CHECK:       ag.assert %{{.*}}, "{{.*}}effects.py:[[@LINE-8]]:5: tf.debugging.assert_positive failed: must be positive"
