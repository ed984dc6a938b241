# RUN: %expect_exit 0 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
# `tfx.function` is tf.function under another import alias, so it is accepted.
import tensorflow as tfx

@tfx.function
def f(x):
    return x
# CHECK:      Module @{{.*}}
# CHECK-NEXT:   Import @{{.*}}decorator-tf-function-alias-accepted.py:[[@LINE-6]]:1-[[@LINE-6]]:25
# CHECK-NEXT:     alias 'tensorflow' as 'tfx' @{{.*}}
# CHECK-NEXT:   FunctionDef 'f' @{{.*}}decorator-tf-function-alias-accepted.py:[[@LINE-5]]:1-[[@LINE-4]]:13
# CHECK-NEXT:     decorators:
# CHECK-NEXT:       Attribute 'function' @{{.*}}decorator-tf-function-alias-accepted.py:[[@LINE-8]]:2-[[@LINE-8]]:14
# CHECK-NOT:  error
