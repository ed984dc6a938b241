# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    tf.abs(*3)
# CHECK:      {{.*}}unsupported-star-call-argument.py:[[@LINE-1]]:13: error: cannot iterate over the Python int 3
# CHECK-NEXT:     tf.abs(*3)
# CHECK-NEXT:             ^
