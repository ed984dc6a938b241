# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# A staged construct in module-level code (here `not` of a tf.Variable) once crashed the
# tracer (a null pointer: module-level code has no trace result); found by fuzz-analysis.
import tensorflow as tf

total = not tf.Variable(0)
# CHECK: {{.*}}.py:[[@LINE-1]]:9: error: 'not' of an int32 tf.Variable of shape (): a staged 'not' (tf.logical_not) needs a bool tensor
flag = not tf.Variable(True)
# CHECK-NOT: {{.*}}.py:[[@LINE-1]]{{.*}}error


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def f(n):
    return n + 1
