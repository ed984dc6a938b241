# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# What fails while tracing is reported; agc does not run an except clause for it, and
# says so where the handler is.
import tensorflow as tf


@tf.function
def traced():
    try:
        x = int("not a number")
    except ValueError:
        x = 0
    return x
# CHECK:      {{.*}}try-does-not-catch.py:[[@LINE-4]]:13: error: invalid literal for int() with base 10: 'not a number' (or one outside the 64 bits in which agc evaluates Python ints)
# CHECK-NEXT:         x = int("not a number")
# CHECK-NEXT:             ^~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}try-does-not-catch.py:[[@LINE-6]]:5: note: agc does not catch what fails while tracing, so this handler does not run; check the condition with an if instead
# CHECK-NEXT:     except ValueError:
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~
