# repro: agc run stack-of-empty-tensors.py:f --args '[{"dtype": "int32", "value": [[], [], []], "shape": [3, 0]}, {"dtype": "int32", "value": 3}]'
# tf.stack of [3, 0] tensors along axis 2: agc's lowering failed MLIR's verifier ("offset 1 is out-of-bounds")
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[3, 0], dtype=tf.int32), tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x2, n3):
    if n3 > 0:
        x2 %= n3
    v13 = tf.stack([x2, x2], axis=2)
    return v13
