# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

def scale(v, k):
    return v * k


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    return scale(x)
# CHECK:      {{.*}}tracing-call-missing-argument.py:[[@LINE-1]]:12: error: 'scale' is missing the argument 'k'
# CHECK-NEXT:     return scale(x)
# CHECK-NEXT:            ^~~~~~~~
# CHECK-NEXT: {{.*}}tracing-call-missing-argument.py:[[@LINE-10]]:14: note: the parameter is declared here
# CHECK-NEXT: def scale(v, k):
# CHECK-NEXT:              ^
# CHECK-NOT:  {{.*}}error:{{.*}}
