# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A nonlocal (or global) name written under staged control flow is refused, located: the
# cond carries local names only. (Written in Python code, it goes to the enclosing call's
# binding: nonlocal_counter in test/conformance/scoping.py.)
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def traced(x):
    count = 0

    def bump():
        nonlocal count
        if x > 0:
            count = 1

    bump()
    return count
# CHECK:      {{.*}}nonlocal-under-staged-if.py:[[@LINE-4]]:13: error: assigning the nonlocal 'count' under a staged condition or loop is not supported by agc: tf.cond and tf.while_loop carry local names only
# CHECK-NEXT:             count = 1
# CHECK-NEXT:             ^~~~~
# CHECK-NEXT: {{.*}}nonlocal-under-staged-if.py:[[@LINE-7]]:13: note: assign a local name in the staged code, and the nonlocal after it
# CHECK-NEXT:             count = 1
# CHECK-NEXT:             ^~~~~
