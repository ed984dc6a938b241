# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A decorator from a library agc does not run (functools.lru_cache would hash tensors,
# which TensorFlow 2 refuses) is refused where it is applied.
import tensorflow as tf


@tf.function
def traced():
    import functools
    @functools.lru_cache
    def f(x):
        return x
    f()
# CHECK:      {{.*}}decorator-unsupported-library.py:[[@LINE-4]]:6: error: 'functools.lru_cache' is not supported in traced code: agc compiles TensorFlow functions and Python, not other libraries
# CHECK-NEXT:     @functools.lru_cache
# CHECK-NEXT:      ^~~~~~~~~~~~~~~~~~~
