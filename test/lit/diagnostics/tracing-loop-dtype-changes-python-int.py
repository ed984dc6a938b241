# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    x = 0
    for i in tf.range(n):
        x = tf.cast(i, tf.float32)
    return x
# CHECK:      {{.*}}tracing-loop-dtype-changes-python-int.py:[[@LINE-3]]:5: error: 'x' has dtype int32 before the loop, but dtype float32 after one iteration
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-dtype-changes-python-int.py:[[@LINE-5]]:9: note: 'x' becomes a float32 tensor of shape () here
# CHECK-NEXT:         x = tf.cast(i, tf.float32)
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-loop-dtype-changes-python-int.py:[[@LINE-10]]:5: note: 'x' is the Python int 0, which the loop makes an int32 tensor of shape () before the loop
# CHECK-NEXT:     x = 0
# CHECK-NEXT:     ^
# CHECK-NOT:  {{.*}}error:{{.*}}
