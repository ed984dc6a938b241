# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# Python floats print as Python prints them (1.5, not 1.500000e+00).
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    return x + 1.5
# CHECK: {{.*}}tracing-float-into-int-tensor.py:[[@LINE-1]]:12: error: cannot convert the Python float 1.5 to a tensor of dtype int32 (it holds a float)
