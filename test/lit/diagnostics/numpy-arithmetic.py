# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# NumPy arrays are constants for TensorFlow ops; NumPy arithmetic on them is refused.
import numpy as np
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[3], dtype=tf.float32)])
def f(x):
    scale = np.ones(3) * 2.0
    return x * scale

@tf.function(input_signature=[tf.TensorSpec(shape=[3], dtype=tf.float32)])
def g(x):
    return x + np.array([1.0, [2.0]])
# CHECK:      {{.*}}numpy-arithmetic.py:[[@LINE-6]]:13: error: NumPy arithmetic ('*' of a NumPy float64 array of shape (3,) and the Python float 2.0) while tracing is not supported by agc
# CHECK-NEXT:     scale = np.ones(3) * 2.0
# CHECK-NEXT:             ^~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}numpy-arithmetic.py:[[@LINE-9]]:13: note: make the array a tensor first (tf.constant(array)), or compute it with TensorFlow ops
# CHECK-NEXT:     scale = np.ones(3) * 2.0
# CHECK-NEXT:             ^~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}numpy-arithmetic.py:[[@LINE-7]]:16: error: np.array() of a Python list is not supported by agc: it takes (nested, rectangular) lists or tuples of Python numbers
# CHECK-NEXT:     return x + np.array([1.0, [2.0]])
# CHECK-NEXT:                ^~~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
