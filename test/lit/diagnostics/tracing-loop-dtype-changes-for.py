# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = tf.constant(0.0)
    for i in tf.range(n):
        x = i
    return x
# CHECK:      {{.*}}tracing-loop-dtype-changes-for.py:[[@LINE-3]]:5: error: 'x' has dtype float32 before the loop, but dtype int32 after one iteration
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-dtype-changes-for.py:[[@LINE-5]]:9: note: 'x' becomes an int32 tensor of shape () here
# CHECK-NEXT:         x = i
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-loop-dtype-changes-for.py:[[@LINE-10]]:5: note: 'x' is a float32 tensor of shape () before the loop
# CHECK-NEXT:     x = tf.constant(0.0)
# CHECK-NEXT:     ^
# CHECK-NOT:  {{.*}}error:{{.*}}
