# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# A staged construct in module-level code (here `not` of a tf.Variable) once crashed the
# tracer (a null pointer: module-level code has no trace result); found by fuzz-analysis.
# The refusal waits for a traced function that uses the name.
import tensorflow as tf

total = not tf.Variable(0)
flag = not tf.Variable(True)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def f(n):
    return n + total
# CHECK:      {{.*}}.py:[[@LINE-1]]:16: error: 'total' cannot be used in compiled code: agc could not evaluate its definition at the top level of the file
# CHECK:      {{.*}}.py:[[@LINE-8]]:9: note: 'not' of an int32 tf.Variable of shape (): a staged 'not' (tf.logical_not) needs a bool tensor
# CHECK-NOT: {{.*}}.py:[[@LINE-8]]{{.*}}error
