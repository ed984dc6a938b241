# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    tf.abs(**[1])
# CHECK:      {{.*}}unsupported-double-star-call-argument.py:[[@LINE-1]]:12: error: '**' unpacks a dict, and agc does not support dicts in traced code yet
# CHECK-NEXT:     tf.abs(**[1])
# CHECK-NEXT:            ^~~~~
