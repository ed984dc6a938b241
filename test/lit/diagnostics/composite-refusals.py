# The composite TensorFlow functions (TracerComposite.cpp) refuse, located, what agc cannot
# compute as TensorFlow does, and what TensorFlow itself refuses while tracing.
# RUN: not %agc compile %s --function spectral_norm -o %t.o 2>&1 | FileCheck %s --check-prefix=NORM
# RUN: not %agc compile %s --function diagonal_einsum -o %t.o 2>&1 | FileCheck %s --check-prefix=EINSUM
# RUN: not %agc compile %s --function gelu_of_ints -o %t.o 2>&1 | FileCheck %s --check-prefix=GELU
# RUN: not %agc compile %s --function unsorted_top_k -o %t.o 2>&1 | FileCheck %s --check-prefix=TOPK
# RUN: not %agc compile %s --function split_unknown -o %t.o 2>&1 | FileCheck %s --check-prefix=SPLIT
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([2, 2], tf.float32)])
def spectral_norm(x):
    return tf.norm(x, ord=2, axis=[0, 1])
# NORM: composite-refusals.py:[[@LINE-1]]:12: error: tf.norm(): ord=2 over two axes is not supported by agc
# NORM-NEXT: return tf.norm(x, ord=2, axis=[0, 1])
# NORM-NEXT: ^~~~


@tf.function(input_signature=[tf.TensorSpec([2, 2], tf.float32)])
def diagonal_einsum(x):
    return tf.einsum("ii->i", x)
# EINSUM: composite-refusals.py:[[@LINE-1]]:12: error: tf.einsum(): a label repeated in one operand ('ii': a diagonal) is not supported by agc


@tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
def gelu_of_ints(x):
    return tf.nn.gelu(x)
# GELU: composite-refusals.py:[[@LINE-1]]:12: error: tf.nn.gelu(): 'features' must be a float tensor (float32 or float64), not an int32 tensor of shape (2,)


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def unsorted_top_k(x):
    return tf.math.top_k(x, 2, sorted=False)
# TOPK: composite-refusals.py:[[@LINE-1]]:12: error: tf.math.top_k(): sorted=False is not supported by agc


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def split_unknown(x):
    return tf.split(x, 2)
# SPLIT: composite-refusals.py:[[@LINE-1]]:12: error: tf.split(): splitting a dimension known only at run time into 2 parts is not supported by agc; give the sizes
