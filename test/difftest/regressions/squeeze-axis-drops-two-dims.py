# repro: agc run squeeze-axis-drops-two-dims.py:f --args '[{"dtype": "float32", "value": [[[1.0]], [[1.0]]]}]'
# tf.squeeze(x, axis=1) of a [None, 1, 1] tensor has shape [2] (agc), [2, 1] (TensorFlow): both size-1 dimensions dropped
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None, 1, 1], dtype=tf.float32)])
def f(x3):
    v14 = tf.squeeze(x3, axis=1)
    return (v14,)
