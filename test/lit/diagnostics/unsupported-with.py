# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    with open("f") as f:
        pass
# CHECK:      {{.*}}unsupported-with.py:[[@LINE-2]]:5: error: 'with' statements are not supported by agc
# CHECK-NEXT:     with open("f") as f:
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~
