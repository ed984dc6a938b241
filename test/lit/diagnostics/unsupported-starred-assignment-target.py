# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    a, *b = c
# CHECK:      {{.*}}unsupported-starred-assignment-target.py:[[@LINE-1]]:8: error: starred targets ('*x') are not supported by agc
# CHECK-NEXT:     a, *b = c
# CHECK-NEXT:        ^~
