# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# Returns joined by a staged if give a tuple and a tensor.
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    if x > 0:
        return x, x
    return x
# CHECK:      {{.*}}nest-return-structures-differ.py:[[@LINE-1]]:5: error: this return gives a float32 tensor of shape (), but the return at line 8 gives a Python tuple; returns joined by a staged condition must have the same type
# CHECK-NEXT:     return x
# CHECK-NEXT:     ^~~~~~~~
# CHECK-NEXT: {{.*}}nest-return-structures-differ.py:[[@LINE-5]]:9: note: the other return
# CHECK-NEXT:         return x, x
# CHECK-NEXT:         ^~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
