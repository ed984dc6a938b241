# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    x = 1j
# CHECK:      {{.*}}unsupported-complex-literal.py:[[@LINE-1]]:9: error: Python complex numbers ({{.*}}) are not supported by agc; make complex tensors with tf.complex(real, imag)
# CHECK-NEXT:     x = 1j
# CHECK-NEXT:         ^~
