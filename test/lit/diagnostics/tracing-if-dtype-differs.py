# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    if x > 0:
        y = tf.constant(1.0)
    else:
        y = tf.constant(0)
    return y
# CHECK:      {{.*}}tracing-if-dtype-differs.py:[[@LINE-5]]:5: error: 'y' has dtype float32 in the main branch, but dtype int32 in the else branch
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-if-dtype-differs.py:[[@LINE-7]]:9: note: 'y' is a float32 tensor of shape () here
# CHECK-NEXT:         y = tf.constant(1.0)
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-if-dtype-differs.py:[[@LINE-8]]:9: note: and an int32 tensor of shape () here
# CHECK-NEXT:         y = tf.constant(0)
# CHECK-NEXT:         ^
# CHECK-NOT:  {{.*}}error:{{.*}}
