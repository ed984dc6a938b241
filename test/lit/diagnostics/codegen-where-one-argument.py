# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[4], dtype=tf.bool)])
def f(c):
    return tf.where(c, 1.0, 2.0), tf.where(c)
# CHECK:      {{.*}}codegen-where-one-argument.py:[[@LINE-1]]:35: error: tf.where with one argument (the indices of true elements) is not supported by agc's code generator; pass x and y
# CHECK-NEXT:     return tf.where(c, 1.0, 2.0), tf.where(c)
# CHECK-NEXT:                                   ^~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
