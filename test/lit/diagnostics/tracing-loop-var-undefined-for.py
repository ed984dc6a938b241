# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    for i in tf.range(n):
        s = s + i
    return s
# CHECK:      {{.*}}tracing-loop-var-undefined-for.py:[[@LINE-3]]:5: error: 's' must be defined before the loop
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-loop-var-undefined-for.py:[[@LINE-5]]:9: note: 's' is assigned here, in the loop, and used after an iteration or after the loop
# CHECK-NEXT:         s = s + i
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-loop-var-undefined-for.py:[[@LINE-8]]:13: note: agc tried to define it from one iteration of the loop, as TensorFlow does, but: local variable 's' is used before it is assigned
# CHECK-NEXT:         s = s + i
# CHECK-NEXT:             ^
# CHECK-NEXT: {{.*}}tracing-loop-var-undefined-for.py:[[@LINE-12]]:5: note: a staged loop (tf.while_loop) can run zero times, so 's' needs a value before it; for example `s = tf.zeros_like(...)`
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
