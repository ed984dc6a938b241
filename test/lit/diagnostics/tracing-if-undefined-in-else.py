# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    if x > 0:
        y = x + 1
    else:
        z = x - 1
    return y
# CHECK:      {{.*}}tracing-if-undefined-in-else.py:[[@LINE-5]]:5: error: 'y' must also be initialized in the else branch
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-if-undefined-in-else.py:[[@LINE-7]]:9: note: 'y' is assigned here, in the main branch
# CHECK-NEXT:         y = x + 1
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-if-undefined-in-else.py:[[@LINE-8]]:9: note: the else branch does not assign 'y'; assign it there too, or before the if
# CHECK-NEXT:         z = x - 1
# CHECK-NEXT:         ^~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
