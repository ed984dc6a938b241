# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# Calling a generator function is refused even where the call would not reach its yield.
import tensorflow as tf

def count(n):
    i = 0
    while i < n:
        yield i
        i += 1

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    for k in count(0):
        x = x + k
    return x
# CHECK:      {{.*}}generator-called.py:[[@LINE-8]]:9: error: generators ('yield') are not supported by agc
# CHECK-NEXT:         yield i
# CHECK-NEXT:         ^~~~~~~
# CHECK-NEXT: {{.*}}generator-called.py:[[@LINE-6]]:14: note: 'count' is a generator function (it holds a yield), called here
# CHECK-NEXT:     for k in count(0):
# CHECK-NEXT:              ^~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
