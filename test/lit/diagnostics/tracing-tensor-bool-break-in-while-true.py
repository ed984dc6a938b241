# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    while True:
        x = x * 2
        if x > 100:
            break
    return x
# CHECK:      {{.*}}tracing-tensor-bool-break-in-while-true.py:[[@LINE-2]]:13: error: 'break' depends on a tensor, but the while loop it leaves is a Python loop: the loop would need a tensor as a Python bool
# CHECK-NEXT:             break
# CHECK-NEXT:             ^~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-break-in-while-true.py:[[@LINE-6]]:12: note: the break is under this staged condition (a tensor)
# CHECK-NEXT:         if x > 100:
# CHECK-NEXT:            ^~~~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-break-in-while-true.py:[[@LINE-11]]:5: note: this loop is unrolled at compile time; write `while tf.constant(True):` to stage it
# CHECK-NEXT:     while True:
# CHECK-NEXT:     ^~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
