import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.bfloat16), tf.TensorSpec([None], tf.bfloat16)])
def compare_bf16(x, y):
    """bfloat16 comparisons in kernels: compared as float32 (ptxas has no setp.ftz.bf16)."""
    return x < y, tf.cast(x, tf.bool), tf.equal(x, y)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float16), tf.TensorSpec([None], tf.float16)])
def compare_f16(x, y):
    return x < y, tf.cast(x, tf.bool)


@tf.function(input_signature=[tf.TensorSpec([None], tf.bfloat16)])
def softplus_bf16(x):
    """A float32 compare of an extended bfloat16 with a constant bfloat16 holds exactly
    (softplus's x > 87): LLVM would narrow it to setp.ftz.bf16 (seen on an H100)."""
    return tf.nn.softplus(x), tf.nn.sigmoid(x)
