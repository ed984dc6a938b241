# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A default is evaluated where its function is defined; one agc cannot evaluate makes the
# function refused where it is used, with the reason, not "not defined".
import tensorflow as tf


def scaled(x, layer=tf.keras.layers.Dense(2)):
    return x


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def traced(x):
    return scaled(x)
# CHECK:      {{.*}}module-level-default-refused.py:[[@LINE-1]]:12: error: 'scaled' cannot be used in compiled code: agc could not evaluate its definition at the top level of the file
# CHECK-NEXT:     return scaled(x)
# CHECK-NEXT:            ^~~~~~
# CHECK-NEXT: {{.*}}module-level-default-refused.py:[[@LINE-10]]:21: note: Keras ('tf.keras.layers.Dense') is not supported by agc: a layer or model is a Python object whose weights and calls agc cannot compile ahead of time; compile the computation as a tf.function over tensors and tf.Variables
# CHECK-NEXT: def scaled(x, layer=tf.keras.layers.Dense(2)):
# CHECK-NEXT:                     ^~~~~~~~~~~~~~~~~~~~~~~~
