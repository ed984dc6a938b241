# repro: agc run reshape-empty-with-dynamic-size.py:f --args '[{"dtype": "float64", "value": [], "shape": [0, 2]}]'
# tf.reshape of a [0, None] tensor: agc's lowering failed MLIR's verifier (memref.collapse_shape to a static 0)
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[0, None], dtype=tf.float64)])
def f(x1):
    v10 = tf.reshape(x1, [-1, 3])
    return v10, tf.reshape(x1 + 1.0, [0, 5])
