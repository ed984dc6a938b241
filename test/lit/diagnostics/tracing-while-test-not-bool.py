# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    while x:
        x = x - 1.0
    return x
# CHECK:      {{.*}}tracing-while-test-not-bool.py:[[@LINE-3]]:11: error: the test of this staged loop is a float32 tensor of shape (); it must be a scalar bool tensor
# CHECK-NEXT:     while x:
# CHECK-NEXT:           ^
# CHECK-NOT:  {{.*}}error:{{.*}}
