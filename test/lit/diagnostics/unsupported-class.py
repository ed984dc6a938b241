# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    class Model:
        pass
# CHECK:      {{.*}}unsupported-class.py:[[@LINE-2]]:5: error: class definitions are not supported by agc
# CHECK-NEXT:     class Model:
# CHECK-NEXT:     ^~~~~~~~~~~~
