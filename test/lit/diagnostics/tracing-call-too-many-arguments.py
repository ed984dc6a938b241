# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

def double(v):
    return v * 2.0


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    return double(x, 3.0)
# CHECK:      {{.*}}tracing-call-too-many-arguments.py:[[@LINE-1]]:12: error: 'double' takes 1 positional argument{{s?}} but 2 were given
# CHECK-NEXT:     return double(x, 3.0)
# CHECK-NEXT:            ^~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-call-too-many-arguments.py:[[@LINE-10]]:5: note: 'double' is defined here
# CHECK-NEXT: def double(v):
# CHECK-NEXT:     ^~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
