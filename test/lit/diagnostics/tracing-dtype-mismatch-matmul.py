# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[2, 2], dtype=tf.float32)])
def f(x):
    m = tf.eye(2, dtype=tf.float64)
    return tf.matmul(x, m)
# CHECK:      {{.*}}tracing-dtype-mismatch-matmul.py:[[@LINE-1]]:12: error: tf.matmul() needs one dtype, got a float32 tensor of shape (2, 2) and a float64 tensor of shape (2, 2)
# CHECK-NEXT:     return tf.matmul(x, m)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
