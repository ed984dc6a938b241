# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    return tf.math.no_such_op(x)
# CHECK:      {{.*}}tracing-tf-unknown-function-in-module.py:[[@LINE-1]]:12: error: 'tf.math.no_such_op' is not a TensorFlow function agc knows
# CHECK-NEXT:     return tf.math.no_such_op(x)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
