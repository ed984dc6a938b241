# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf


@tf.function
def f():
    return tf.constant("abc")
# CHECK:      {{.*}}codegen-string-tensor.py:[[@LINE-1]]:12: error: string tensors are not supported by agc's code generator
# CHECK-NEXT:     return tf.constant("abc")
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
