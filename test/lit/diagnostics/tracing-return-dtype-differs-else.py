# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    if x > 0:
        return tf.constant(1.0)
    else:
        return x
# CHECK:      {{.*}}tracing-return-dtype-differs-else.py:[[@LINE-1]]:9: error: this return gives an int32 tensor of shape (), but the return at line 7 gives a float32 tensor of shape (); returns joined by a staged condition must have the same type
# CHECK-NEXT:         return x
# CHECK-NEXT:         ^~~~~~~~
# CHECK-NEXT: {{.*}}tracing-return-dtype-differs-else.py:[[@LINE-6]]:9: note: the other return
# CHECK-NEXT:         return tf.constant(1.0)
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
