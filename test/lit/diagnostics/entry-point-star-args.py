# RUN: %expect_exit 1 %agc compile --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A compiled function's C signature names its parameters: *args cannot be one.
import tensorflow as tf


@tf.function
def f(x, *rest):
    return x
# CHECK:      {{.*}}entry-point-star-args.py:[[@LINE-2]]:10: error: 'f' is compiled as an entry point, whose C signature takes named parameters, not '*rest'
# CHECK-NEXT: def f(x, *rest):
# CHECK-NEXT:          ^~~~~
# CHECK-NEXT: {{.*}}entry-point-star-args.py:[[@LINE-5]]:5: note: call it from a function with named parameters, and compile that one
