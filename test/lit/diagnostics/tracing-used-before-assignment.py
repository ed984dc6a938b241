# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    z = x + y
    y = 1.0
    return z
# CHECK:      {{.*}}tracing-used-before-assignment.py:[[@LINE-3]]:13: error: local variable 'y' is used before it is assigned
# CHECK-NEXT:     z = x + y
# CHECK-NEXT:             ^
# CHECK-NEXT: {{.*}}tracing-used-before-assignment.py:[[@LINE-5]]:5: note: 'y' is assigned here, which makes it local to 'f'
