# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

def axpy(a, x, y=0.0):
    return a * x + y


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    return axpy(2.0, x, z=x)
# CHECK:      {{.*}}tracing-call-unexpected-keyword.py:[[@LINE-1]]:12: error: 'axpy' got an unexpected keyword argument 'z'
# CHECK-NEXT:     return axpy(2.0, x, z=x)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-call-unexpected-keyword.py:[[@LINE-10]]:5: note: 'axpy' is defined here
# CHECK-NEXT: def axpy(a, x, y=0.0):
# CHECK-NEXT:     ^~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
