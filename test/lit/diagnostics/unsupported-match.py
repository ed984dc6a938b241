# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    match x:
        case 1:
            pass
# CHECK:      {{.*}}unsupported-match.py:[[@LINE-3]]:5: error: 'match' statements are not supported by agc
# CHECK-NEXT:     match x:
# CHECK-NEXT:     ^~~~~~~~
