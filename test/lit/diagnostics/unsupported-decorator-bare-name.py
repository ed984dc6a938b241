# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    @my_decorator
    def compute(x):
        return x
    compute()
# CHECK:      {{.*}}unsupported-decorator-bare-name.py:[[@LINE-4]]:6: error: decorators other than '@tf.function' are not supported by agc
# CHECK-NEXT:     @my_decorator
# CHECK-NEXT:      ^~~~~~~~~~~~
# CHECK-NEXT: {{.*}}unsupported-decorator-bare-name.py:[[@LINE-6]]:9: note: on the definition of 'compute'
# CHECK-NEXT:     def compute(x):
# CHECK-NEXT:         ^~~~~~~
