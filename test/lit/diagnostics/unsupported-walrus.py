# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    if (n := 10) > 5:
        pass
# CHECK:      {{.*}}unsupported-walrus.py:[[@LINE-2]]:9: error: assignment expressions (':=') are not supported by agc
# CHECK-NEXT:     if (n := 10) > 5:
# CHECK-NEXT:         ^~~~~~~
