# A keyword of a TensorFlow function that agc's typing rule and lowering do not read is
# refused, located, rather than ignored (tf.matmul's adjoint_b once was: a wrong product).
# name= and a keyword given None (every optional argument's default) are fine.
# RUN: %expect_exit 1 %agc compile %s -o %t.o 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32),
                              tf.TensorSpec(shape=[None], dtype=tf.int32)])
def f(x, i):
    return tf.gather(x, i, validate_indices=False, name="picked", axis=None)
# CHECK:      {{.*}}ignored-keyword.py:[[@LINE-1]]:12: error: tf.gather() with 'validate_indices=' is not supported by agc: it would be ignored (leave it out, or write the computation it asks for)
# CHECK-NEXT:     return tf.gather(x, i, validate_indices=False, name="picked", axis=None)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
