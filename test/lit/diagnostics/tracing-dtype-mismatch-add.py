# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[3], dtype=tf.float32),
                              tf.TensorSpec(shape=[3], dtype=tf.int32)])
def f(x, n):
    return x + n
# CHECK:      {{.*}}tracing-dtype-mismatch-add.py:[[@LINE-1]]:12: error: '+' of a float32 tensor and an int32 tensor: TensorFlow converts neither to the other's dtype (AddV2 needs one); tf.cast one of them
# CHECK-NEXT:     return x + n
# CHECK-NEXT:            ^~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
