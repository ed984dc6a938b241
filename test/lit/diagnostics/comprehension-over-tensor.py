# RUN: %expect_exit 1 %agc compile --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# AutoGraph leaves comprehensions to Python: a tensor there is iterated or tested in
# Python, which agc refuses, located, with what to write instead.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def over_tensor(x):
    return [v * 2 for v in x]
# CHECK:      {{.*}}comprehension-over-tensor.py:[[@LINE-1]]:28: error: iterating over a float32 tensor of shape (None,) in Python code AutoGraph does not convert (a comprehension, an unpacking, enumerate or zip) is not allowed: TensorFlow refuses it too ("Iterating over a symbolic tf.Tensor is not allowed")
# CHECK-NEXT:     return [v * 2 for v in x]
# CHECK-NEXT:                            ^
# CHECK-NEXT: {{.*}}comprehension-over-tensor.py:[[@LINE-4]]:28: note: use a for statement (staged as a loop), tf.unstack, or tf.map_fn


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def tensor_test(n):
    return [k for k in range(3) if n > k]
# CHECK:      {{.*}}comprehension-over-tensor.py:[[@LINE-1]]:36: error: the condition of a comprehension must be a Python bool, not a bool tensor of shape (): AutoGraph does not convert comprehensions, so it would use a tensor as a Python bool
# CHECK-NEXT:     return [k for k in range(3) if n > k]
# CHECK-NEXT:                                    ^~~~~
# CHECK-NEXT: {{.*}}comprehension-over-tensor.py:[[@LINE-4]]:36: note: filter with tf.boolean_mask, or write a for statement
