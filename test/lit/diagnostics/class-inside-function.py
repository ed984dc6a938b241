# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A class is compiled where the file defines it at its top level; one defined inside a
# function is refused when traced, located, with what to do.
import tensorflow as tf


@tf.function
def traced():
    class Model:
        pass
# CHECK:      {{.*}}class-inside-function.py:[[@LINE-2]]:11: error: a class defined inside a function is not supported by agc
# CHECK-NEXT:     class Model:
# CHECK-NEXT:           ^~~~~
# CHECK-NEXT: {{.*}}class-inside-function.py:[[@LINE-5]]:11: note: define 'Model' at the top level of the file
