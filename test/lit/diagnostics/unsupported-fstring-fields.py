# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    x = f"a{y}b"
# CHECK:      {{.*}}unsupported-fstring-fields.py:[[@LINE-1]]:9: error: f-strings are not supported by agc
# CHECK-NEXT:     x = f"a{y}b"
# CHECK-NEXT:         ^~~~~~~~
