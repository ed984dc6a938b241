import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.bfloat16), tf.TensorSpec([None], tf.bfloat16)])
def compare_bf16(x, y):
    """bfloat16 comparisons in kernels: compared as float32 (ptxas has no setp.ftz.bf16)."""
    return x < y, tf.cast(x, tf.bool), tf.equal(x, y)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float16), tf.TensorSpec([None], tf.float16)])
def compare_f16(x, y):
    return x < y, tf.cast(x, tf.bool)
