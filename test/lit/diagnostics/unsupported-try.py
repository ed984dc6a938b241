# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    try:
        x = 1
    except ValueError:
        pass
# CHECK:      {{.*}}unsupported-try.py:[[@LINE-4]]:5: error: 'try' statements are not supported by agc
# CHECK-NEXT:     try:
# CHECK-NEXT:     ^~~~
