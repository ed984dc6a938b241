# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# The analyses accept a tensor of unknown rank; the code generator needs a rank.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
def f(x):
    return x + 1
# CHECK:      {{.*}}codegen-unknown-rank.py:[[@LINE-2]]:5: error: a float32 tensor of unknown rank is not supported by agc's code generator; give it a rank (a shape in the input signature, or set_shape)
# CHECK-NEXT: def f(x):
# CHECK-NEXT:     ^
# CHECK-NOT:  {{.*}}error:{{.*}}
