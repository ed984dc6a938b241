# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A wildcard import is skipped; a traced function that needs a name it would bind is told.
import tensorflow as tf
from tensorflow import *


@tf.function
def traced():
    return constant(1)
# CHECK:      {{.*}}unsupported-wildcard-import.py:[[@LINE-1]]:12: error: name 'constant' is not defined
# CHECK-NEXT:     return constant(1)
# CHECK-NEXT:            ^~~~~~~~
# CHECK-NEXT: {{.*}}unsupported-wildcard-import.py:[[@LINE-9]]:24: note: this statement may define it, but agc skipped it: wildcard imports ('import *') are not supported by agc
# CHECK-NEXT: from tensorflow import *
# CHECK-NEXT:                        ^
