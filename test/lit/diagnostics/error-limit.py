# RUN: %expect_exit 1 %agc --emit=ag --error-limit=2 %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf


@tf.function
def a():
    return 1j


@tf.function
def b():
    return 2j


@tf.function
def c():
    return 3j
# CHECK:      {{.*}}error-limit.py:[[@LINE-11]]:12: error: Python complex numbers ({{.*}}) are not supported by agc; make complex tensors with tf.complex(real, imag)
# CHECK-NEXT:     return 1j
# CHECK-NEXT:            ^~
# CHECK-NEXT: {{.*}}error-limit.py:[[@LINE-9]]:12: error: Python complex numbers ({{.*}}) are not supported by agc; make complex tensors with tf.complex(real, imag)
# CHECK-NEXT:     return 2j
# CHECK-NEXT:            ^~
# CHECK-NEXT: agc: error: too many errors (2), stopping here
# CHECK-NOT:  return 3j
