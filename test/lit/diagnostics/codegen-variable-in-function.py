# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# TensorFlow creates it on the first trace only; agc keeps module state at module level.
import tensorflow as tf


@tf.function
def f():
    v = tf.Variable(1.0)
    return v.read_value()
# CHECK:      {{.*}}codegen-variable-in-function.py:[[@LINE-2]]:9: error: a tf.Variable created inside a traced function is not supported by agc; create it at module level (or in the __init__ of a tf.Module made there)
# CHECK-NEXT:     v = tf.Variable(1.0)
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
