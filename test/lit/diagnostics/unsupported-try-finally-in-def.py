# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    def f():
        try:
            pass
        finally:
            pass
    f()
# CHECK:      {{.*}}unsupported-try-finally-in-def.py:[[@LINE-5]]:9: error: 'try' statements are not supported by agc
# CHECK-NEXT:         try:
# CHECK-NEXT:         ^~~~
