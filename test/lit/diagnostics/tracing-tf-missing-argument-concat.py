# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[4], dtype=tf.float32)])
def f(x):
    return tf.concat([x, x])
# CHECK:      {{.*}}tracing-tf-missing-argument-concat.py:[[@LINE-1]]:12: error: tf.concat() is missing its argument 'axis'
# CHECK-NEXT:     return tf.concat([x, x])
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
