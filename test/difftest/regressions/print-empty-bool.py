# repro: agc run print-empty-bool.py:f --args '[{"dtype": "bool", "value": [[[], [], [], []], [[], [], [], []], [[], [], [], []]], "shape": [3, 4, 0]}, {"dtype": "int32", "value": 0}]'
# tf.print of an empty bool tensor prints nothing in TensorFlow 2.21; agc printed [[[] [] [] []]]
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[3, None, 0], dtype=tf.bool), tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x2, n4):
    v8 = x2
    tf.print(v8, n4)
    return (v8,)
