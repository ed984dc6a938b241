# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Each function is refused for what it holds; compiling the file names every one refused.
import tensorflow as tf


@tf.function
def with_class():
    class A:
        pass
    return A


@tf.function
def with_yield():
    def g():
        yield 1
    return g()


@tf.function
def fine():
    return tf.constant(1)
# CHECK:      {{.*}}multiple-errors-unsupported.py:[[@LINE-15]]:11: error: a class defined inside a function is not supported by agc
# CHECK-NEXT:     class A:
# CHECK-NEXT:           ^
# CHECK-NEXT: {{.*}}multiple-errors-unsupported.py:[[@LINE-18]]:11: note: define 'A' at the top level of the file
# CHECK-NEXT:     class A:
# CHECK-NEXT:           ^
# CHECK-NEXT: {{.*}}multiple-errors-unsupported.py:[[@LINE-13]]:9: error: generators ('yield') are not supported by agc
# CHECK-NEXT:         yield 1
# CHECK-NEXT:         ^~~~~~~
# CHECK-NEXT: {{.*}}multiple-errors-unsupported.py:[[@LINE-15]]:12: note: 'g' is a generator function (it holds a yield), called here
# CHECK-NEXT:     return g()
# CHECK-NEXT:            ^~~
# CHECK-NEXT: agc: error: {{.*}}: 2 of 3 @tf.functions refused ('with_class', 'with_yield'); nothing written. Compile the others alone with --function NAME
