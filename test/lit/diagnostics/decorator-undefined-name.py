# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A decorator is Python that runs where the definition does: an undefined one is a NameError
# there, as in Python.
import tensorflow as tf


@tf.function
def traced():
    @my_decorator
    def compute(x):
        return x
    compute()
# CHECK:      {{.*}}decorator-undefined-name.py:[[@LINE-4]]:6: error: name 'my_decorator' is not defined
# CHECK-NEXT:     @my_decorator
# CHECK-NEXT:      ^~~~~~~~~~~~
