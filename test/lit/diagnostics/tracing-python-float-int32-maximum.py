# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    return tf.maximum(x, 2.5)
# CHECK:      {{.*}}tracing-python-float-int32-maximum.py:[[@LINE-1]]:12: error: cannot convert the Python float {{[^ ]+}} to a tensor of dtype int32 (it holds a float)
# CHECK-NEXT:     return tf.maximum(x, 2.5)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
