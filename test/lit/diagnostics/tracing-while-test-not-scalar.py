# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[2], dtype=tf.bool)])
def f(b):
    y = tf.constant(0)
    while b:
        y = y + 1
    return y
# CHECK:      {{.*}}tracing-while-test-not-scalar.py:[[@LINE-3]]:11: error: the test of this staged loop is a bool tensor of shape (2,); it must be a scalar bool tensor
# CHECK-NEXT:     while b:
# CHECK-NEXT:           ^
# CHECK-NOT:  {{.*}}error:{{.*}}
