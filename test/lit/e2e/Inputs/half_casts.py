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
