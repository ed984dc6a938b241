# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A raise reached while tracing is an error where it is raised, as Python prints it.
import tensorflow as tf


@tf.function
def traced():
    def f():
        raise ValueError("x")
    f()
# CHECK:      {{.*}}raise-while-tracing.py:[[@LINE-2]]:9: error: ValueError: x
# CHECK-NEXT:         raise ValueError("x")
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}raise-while-tracing.py:[[@LINE-5]]:9: note: raised while tracing: tf.function raises it when it traces the function, so agc refuses the function
# CHECK-NEXT:         raise ValueError("x")
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~~~~~~
