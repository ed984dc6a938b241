# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[5], dtype=tf.int32)])
def f(x):
    return x[::-1]
# CHECK:      {{.*}}codegen-negative-step.py:[[@LINE-1]]:14: error: slices with a negative step are not supported by agc's code generator yet; use tf.reverse
# CHECK-NEXT:     return x[::-1]
# CHECK-NEXT:              ^~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
