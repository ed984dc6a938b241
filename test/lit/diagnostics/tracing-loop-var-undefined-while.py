# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    i = tf.constant(0)
    while i < n:
        total = total + i
        i += 1
    return i
# CHECK:      {{.*}}tracing-loop-var-undefined-while.py:[[@LINE-4]]:5: error: 'total' must be defined before the loop
# CHECK-NEXT:     while i < n:
# CHECK-NEXT:     ^~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-var-undefined-while.py:[[@LINE-6]]:9: note: 'total' is assigned here, in the loop, and used after an iteration or after the loop
# CHECK-NEXT:         total = total + i
# CHECK-NEXT:         ^~~~~
# CHECK-NEXT: {{.*}}tracing-loop-var-undefined-while.py:[[@LINE-9]]:17: note: agc tried to define it from one iteration of the loop, as TensorFlow does, but: local variable 'total' is used before it is assigned
# CHECK-NEXT:         total = total + i
# CHECK-NEXT:                 ^~~~~
# CHECK-NEXT: {{.*}}tracing-loop-var-undefined-while.py:[[@LINE-13]]:5: note: a staged loop (tf.while_loop) can run zero times, so 'total' needs a value before it; for example `total = tf.zeros_like(...)`
# CHECK-NEXT:     while i < n:
# CHECK-NEXT:     ^~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
