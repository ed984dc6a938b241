# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    s = {1, 2, 3}
# CHECK:      {{.*}}unsupported-set-display.py:[[@LINE-1]]:9: error: set displays are not supported by agc
# CHECK-NEXT:     s = {1, 2, 3}
# CHECK-NEXT:         ^~~~~~~~~
