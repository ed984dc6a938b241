# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    n = 0
    while n >= 0:
        x = x + n
        n += 1
    return x
# CHECK:      {{.*}}tracing-python-while-unrolls-forever-counter.py:[[@LINE-4]]:5: error: this Python while loop ran 100000 times while tracing; it would unroll into that many copies
# CHECK-NEXT:     while n >= 0:
# CHECK-NEXT:     ^~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}tracing-python-while-unrolls-forever-counter.py:[[@LINE-7]]:11: note: make the test a tensor to stage it as tf.while_loop
# CHECK-NEXT:     while n >= 0:
# CHECK-NEXT:           ^~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
