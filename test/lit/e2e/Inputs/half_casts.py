"""float32 and float64 to bfloat16 and float16, as a model's weights are stored."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def to_bfloat16(x):
    return tf.cast(x, tf.bfloat16)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def to_float16(x):
    return tf.cast(x, tf.float16)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
def double_to_bfloat16(x):
    return tf.cast(x, tf.bfloat16)


@tf.function(input_signature=[tf.TensorSpec([3], tf.bfloat16)])
def bfloat16_where(x):
    # A select of bfloat16 values, which LLVM kept as floats and rounded back with
    # __truncsfbf2 on a CPU without AVX512-BF16.
    return tf.where(x > 0, x * 2.0, -x)
