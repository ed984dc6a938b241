# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    n = 0
    while n >= 0:
        x = x + n
        n += 1
    return x
# CHECK:      {{.*}}tracing-python-while-unrolls-forever-counter.py:[[@LINE-4]]:5: warning: this Python while loop has run 10000 times while tracing; every pass is unrolled into the program (make its condition a tensor to stage it)
# CHECK-NEXT:     while n >= 0:
# CHECK-NEXT:     ^~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-python-while-unrolls-forever-counter.py:[[@LINE-7]]:5: error: this Python while loop ran 1000000 times while tracing and is still going; agc stops unrolling here
# CHECK-NEXT:     while n >= 0:
# CHECK-NEXT:     ^~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-python-while-unrolls-forever-counter.py:[[@LINE-10]]:11: note: make the test a tensor to stage it as tf.while_loop
# CHECK-NEXT:     while n >= 0:
# CHECK-NEXT:           ^~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
