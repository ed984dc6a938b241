# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    if x > 0:
        y = x
    else:
        y = 2.5
    return y
# CHECK:      {{.*}}tracing-if-dtype-differs-python-float.py:[[@LINE-5]]:5: error: 'y' has dtype int32 in the main branch, but dtype float32 in the else branch
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-if-dtype-differs-python-float.py:[[@LINE-7]]:9: note: 'y' is an int32 tensor of shape () here
# CHECK-NEXT:         y = x
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}tracing-if-dtype-differs-python-float.py:[[@LINE-8]]:9: note: and the Python float {{[^ ]+}} here
# CHECK-NEXT:         y = 2.5
# CHECK-NEXT:         ^
# CHECK-NOT:  {{.*}}error:{{.*}}
