# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    for i in range(5):
        if tf.equal(x, i):
            return i
    return -1
# CHECK:      {{.*}}tracing-tensor-bool-return-in-python-for.py:[[@LINE-2]]:13: error: 'return' depends on a tensor, but it leaves a Python for loop, which would need a tensor as a Python bool
# CHECK-NEXT:             return i
# CHECK-NEXT:             ^~~~~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-return-in-python-for.py:[[@LINE-6]]:12: note: the return is under this staged condition (a tensor)
# CHECK-NEXT:         if tf.equal(x, i):
# CHECK-NEXT:            ^~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-tensor-bool-return-in-python-for.py:[[@LINE-10]]:5: note: this loop is unrolled at compile time; iterate over a tensor (tf.range) to stage it
# CHECK-NEXT:     for i in range(5):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
