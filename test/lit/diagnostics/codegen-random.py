# RUN: %expect_exit 1 %agc --emit=llvm-ir %s 2>&1 | FileCheck %s --match-full-lines
# tf.random.* type-checks, but has no code generation yet: a located refusal, not a crash.
import tensorflow as tf


@tf.function
def f():
    return tf.random.uniform([3])
# CHECK:      {{.*}}codegen-random.py:[[@LINE-1]]:12: error: tf.random.uniform is not supported by agc's code generator yet
# CHECK-NEXT:     return tf.random.uniform([3])
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
