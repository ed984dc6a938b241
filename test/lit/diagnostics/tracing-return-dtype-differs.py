# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    if x > 0:
        return x
    return 1.5
# CHECK:      {{.*}}tracing-return-dtype-differs.py:[[@LINE-1]]:5: error: this return gives a float32 tensor of shape (), but the return at line 7 gives an int32 tensor of shape (); returns joined by a staged condition must have the same type
# CHECK-NEXT:     return 1.5
# CHECK-NEXT:     ^~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-return-dtype-differs.py:[[@LINE-5]]:9: note: the other return
# CHECK-NEXT:         return x
# CHECK-NEXT:         ^~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
