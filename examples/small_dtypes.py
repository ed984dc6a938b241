"""uint8 images and float16 weights, as users pass them: a uint8 image scaled to float32,
and a float16 layer."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.uint8)])
def brighten(pixels):
    return tf.cast(tf.minimum(tf.cast(pixels, tf.int32) * 2, 255), tf.uint8)


@tf.function(input_signature=[tf.TensorSpec(shape=[2], dtype=tf.float16)])
def half_relu(x):
    return tf.nn.relu(x * 3.0)
