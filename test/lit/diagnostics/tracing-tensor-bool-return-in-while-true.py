# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    while True:
        if x > 100:
            return x
        x = x * 2
# CHECK:      {{.*}}tracing-tensor-bool-return-in-while-true.py:[[@LINE-2]]:13: error: 'return' depends on a tensor, but it leaves a Python while loop, which would need a tensor as a Python bool
# CHECK-NEXT:             return x
# CHECK-NEXT:             ^~~~~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-return-in-while-true.py:[[@LINE-6]]:12: note: the return is under this staged condition (a tensor)
# CHECK-NEXT:         if x > 100:
# CHECK-NEXT:            ^~~~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-return-in-while-true.py:[[@LINE-10]]:5: note: this loop is unrolled at compile time; write `while tf.constant(True):` to stage it
# CHECK-NEXT:     while True:
# CHECK-NEXT:     ^~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
