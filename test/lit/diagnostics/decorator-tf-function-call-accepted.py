# RUN: %expect_exit 0 %agc --emit=ast %s 2>&1 | FileCheck %s --match-full-lines
# `@tf.function(...)` with arguments is still tf.function, so it is accepted.
import tensorflow as tf

@tf.function(jit_compile=True)
def f(x):
    return x
# CHECK:      FunctionDef 'f' @{{.*}}decorator-tf-function-call-accepted.py:[[@LINE-2]]:1-[[@LINE-1]]:13
# CHECK-NEXT:   decorators:
# CHECK-NEXT:     Call @{{.*}}decorator-tf-function-call-accepted.py:[[@LINE-5]]:2-[[@LINE-5]]:31
# CHECK-NOT:  error
