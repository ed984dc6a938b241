# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    y = x * scale
    return y
# CHECK:      {{.*}}tracing-undefined-name.py:[[@LINE-2]]:13: error: name 'scale' is not defined
# CHECK-NEXT:     y = x * scale
# CHECK-NEXT:             ^~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
