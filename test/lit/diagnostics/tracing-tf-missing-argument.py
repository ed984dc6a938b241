# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[4], dtype=tf.float32)])
def f(x):
    return tf.reshape(x)
# CHECK:      {{.*}}tracing-tf-missing-argument.py:[[@LINE-1]]:12: error: tf.reshape() is missing its argument 'shape'
# CHECK-NEXT:     return tf.reshape(x)
# CHECK-NEXT:            ^~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
