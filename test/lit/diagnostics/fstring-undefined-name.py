# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# An f-string's fields are expressions tracing evaluates: an undefined name is located at
# the field.
import tensorflow as tf


@tf.function
def traced():
    x = f"a{y}b"
# CHECK:      {{.*}}fstring-undefined-name.py:[[@LINE-1]]:13: error: name 'y' is not defined
# CHECK-NEXT:     x = f"a{y}b"
# CHECK-NEXT:             ^
