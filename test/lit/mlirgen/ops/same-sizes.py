# RUN: %agc --emit=ag %s | FileCheck %s
# Sizes known only at run time that are one size by construction: a tensor and what a
# reduction with keepdims=True, an elementwise op or softmax made of it. Broadcasting them
# together needs neither the run-time check nor the broadcast copy that two unrelated
# tensors of unknown sizes need.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def centered(x):
    e = tf.exp(x - tf.reduce_max(x, axis=1, keepdims=True))
    return e / tf.reduce_sum(e, axis=1, keepdims=True), tf.nn.softmax(x)
# CHECK-LABEL: func.func @centered(
# CHECK-NOT:   ag.assert
# CHECK-NOT:   scf.if
# CHECK:       return


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([None, 1], tf.float32)])
def unrelated(x, y):
    return x - y
# CHECK-LABEL: func.func @unrelated(
# CHECK:       ag.assert {{.*}}"{{.*}}same-sizes.py:[[@LINE-2]]:{{[0-9]+}}: incompatible shapes: dimension 0 is {0} in one operand and {1} in another"
# CHECK:       scf.if
