# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# TensorFlow 2.21 refuses this while tracing ("a return statement cannot be placed inside
# this TensorFlow loop"): AutoGraph's return value starts undefined, and tf.while_loop
# cannot carry an undefined value.
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def find_first_negative(values):
    for i in tf.range(tf.size(values)):
        if values[i] < 0:
            return i
    return tf.constant(-1)
# CHECK:      {{.*}}tracing-return-in-staged-loop.py:[[@LINE-2]]:13: error: a return statement cannot be placed inside a staged for loop (tf.while_loop)
# CHECK-NEXT:             return i
# CHECK-NEXT:             ^~~~~~~~
# CHECK-NEXT: {{.*}}tracing-return-in-staged-loop.py:[[@LINE-7]]:5: note: this loop is staged; keep the result in a variable, break out of the loop, and return after it
