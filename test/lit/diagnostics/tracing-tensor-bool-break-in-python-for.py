# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    for i in range(5):
        if x > i:
            break
        x = x + 1
    return x
# CHECK:      {{.*}}tracing-tensor-bool-break-in-python-for.py:[[@LINE-3]]:13: error: 'break' depends on a tensor, but the for loop it leaves is a Python loop: the loop would need a tensor as a Python bool
# CHECK-NEXT:             break
# CHECK-NEXT:             ^~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-break-in-python-for.py:[[@LINE-7]]:12: note: the break is under this staged condition (a tensor)
# CHECK-NEXT:         if x > i:
# CHECK-NEXT:            ^~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-break-in-python-for.py:[[@LINE-11]]:5: note: this loop is unrolled at compile time; iterate over a tensor (tf.range) to stage it
# CHECK-NEXT:     for i in range(5):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
