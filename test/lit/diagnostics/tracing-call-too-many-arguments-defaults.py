# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

def axpy(a, x, y=0.0):
    return a * x + y


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    return axpy(2.0, x, 1.0, 4.0)
# CHECK:      {{.*}}tracing-call-too-many-arguments-defaults.py:[[@LINE-1]]:12: error: 'axpy' takes 3 positional arguments but 4 were given
# CHECK-NEXT:     return axpy(2.0, x, 1.0, 4.0)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-call-too-many-arguments-defaults.py:[[@LINE-10]]:5: note: 'axpy' is defined here
# CHECK-NEXT: def axpy(a, x, y=0.0):
# CHECK-NEXT:     ^~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
