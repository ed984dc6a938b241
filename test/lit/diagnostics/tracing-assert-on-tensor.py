# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# tf.function does not stage an assert statement: with a tensor test it is refused, as
# TensorFlow 2.21 refuses it while tracing (agc once dropped it silently).
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    assert x > 0, "x must be positive"
    return x
# CHECK:      {{.*}}.py:[[@LINE-2]]:12: error: an assert statement needs a Python bool, but its test is a bool tensor of shape (), known only at run time; tf.function does not stage assert statements
# CHECK-NEXT:     assert x > 0, "x must be positive"
# CHECK-NEXT:            ^~~~~
# CHECK-NEXT: {{.*}}.py:[[@LINE-5]]:5: note: for a run-time check, write tf.debugging.Assert(test, [message]) or a tf.debugging.assert_* function
# CHECK-NOT:  {{.*}}error:{{.*}}
