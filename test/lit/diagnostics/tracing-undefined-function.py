# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    return helper(x) * 2.0
# CHECK:      {{.*}}tracing-undefined-function.py:[[@LINE-1]]:12: error: name 'helper' is not defined
# CHECK-NEXT:     return helper(x) * 2.0
# CHECK-NEXT:            ^~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
