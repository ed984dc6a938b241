# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    acc = tf.constant(1)
    while n > 0:
        acc = tf.cast(acc, tf.float32) * 0.5
        n -= 1
    return acc
# CHECK:      {{.*}}tracing-loop-dtype-changes-while.py:[[@LINE-4]]:5: error: 'acc' has dtype int32 before the loop, but dtype float32 after one iteration
# CHECK-NEXT:     while n > 0:
# CHECK-NEXT:     ^~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-dtype-changes-while.py:[[@LINE-6]]:9: note: 'acc' becomes a float32 tensor of shape () here
# CHECK-NEXT:         acc = tf.cast(acc, tf.float32) * 0.5
# CHECK-NEXT:         ^~~
# CHECK-NEXT: {{.*}}tracing-loop-dtype-changes-while.py:[[@LINE-11]]:5: note: 'acc' is an int32 tensor of shape () before the loop
# CHECK-NEXT:     acc = tf.constant(1)
# CHECK-NEXT:     ^~~
# CHECK-NOT:  {{.*}}error:{{.*}}
