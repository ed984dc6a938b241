# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    import functools
    @functools.lru_cache
    def f(x):
        return x
    f()
# CHECK:      {{.*}}unsupported-decorator.py:[[@LINE-4]]:6: error: decorators other than '@tf.function' are not supported by agc
# CHECK-NEXT:     @functools.lru_cache
# CHECK-NEXT:      ^~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}unsupported-decorator.py:[[@LINE-6]]:9: note: on the definition of 'f'
# CHECK-NEXT:     def f(x):
# CHECK-NEXT:         ^
