# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# A leaf of a carried tuple changes dtype: the message names the leaf.
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    s = {"count": 0, "last": tf.constant(0)}
    for i in tf.range(n):
        s = {"count": s["count"] + 1, "last": tf.cast(i, tf.float32)}
    return s["count"]
# CHECK:      {{.*}}nest-leaf-dtype-changes-in-loop.py:[[@LINE-3]]:5: error: 's['last']' has dtype int32 before the loop, but dtype float32 after one iteration
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}nest-leaf-dtype-changes-in-loop.py:[[@LINE-7]]:5: note: 's['last']' is an int32 tensor of shape () before the loop
# CHECK-NEXT:     s = {"count": 0, "last": tf.constant(0)}
# CHECK-NEXT:     ^
# CHECK-NOT:  {{.*}}error:{{.*}}
