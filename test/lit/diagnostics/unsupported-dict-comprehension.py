# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    y = {x: x for x in range(3)}
# CHECK:      {{.*}}unsupported-dict-comprehension.py:[[@LINE-1]]:9: error: dict comprehensions make dicts, which agc does not support in traced code yet
# CHECK-NEXT:     y = {x: x for x in range(3)}
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~~~~~~~~~
