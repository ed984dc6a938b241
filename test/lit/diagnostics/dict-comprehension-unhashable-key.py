# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# A tensor is not hashable in TensorFlow 2: it cannot be a dict key.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def traced(x):
    y = {x * k: k for k in range(3)}
    return x
# CHECK:      {{.*}}dict-comprehension-unhashable-key.py:[[@LINE-2]]:10: error: unhashable type: a float32 tensor of shape () cannot be a dict key
# CHECK-NEXT:     y = {x * k: k for k in range(3)}
# CHECK-NEXT:          ^~~~~
# CHECK-NEXT: {{.*}}dict-comprehension-unhashable-key.py:[[@LINE-5]]:10: note: a tensor is not hashable in TensorFlow 2; use tensor.ref() as the key, or a Python value
