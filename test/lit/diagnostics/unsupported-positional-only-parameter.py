# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    def f(a, /, b):
        pass
    f()
# CHECK:      {{.*}}unsupported-positional-only-parameter.py:[[@LINE-3]]:14: error: positional-only parameters ('/') are not supported by agc
# CHECK-NEXT:     def f(a, /, b):
# CHECK-NEXT:              ^
