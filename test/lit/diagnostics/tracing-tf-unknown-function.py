# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    return tf.no_such_op(x)
# CHECK:      {{.*}}tracing-tf-unknown-function.py:[[@LINE-1]]:12: error: 'tf.no_such_op' is not a TensorFlow function agc knows
# CHECK-NEXT:     return tf.no_such_op(x)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
