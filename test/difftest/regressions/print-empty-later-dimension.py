# repro: agc run print-empty-later-dimension.py:f --args '[{"dtype": "int32", "value": [[]], "shape": [1, 0, 4]}, {"dtype": "int32", "value": [2, -2, -3]}]'
# tf.print of a [1, 0, 4] tensor: TensorFlow prints '[', a line break and ' ...]'; agc printed [[]]
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None, 0, None], dtype=tf.int32), tf.TensorSpec(shape=[3], dtype=tf.int32)])
def f(x2, x3):
    tf.print('p8:', x3, x2)
    return x2
