# repro: agc run unused-index-out-of-bounds.py:f --args '[{"dtype": "bool", "value": [false]}, {"dtype": "float32", "value": [-0.5]}]'
# x1[1] is never used: TensorFlow prunes it and raises nothing, agc raised index out of bounds
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.bool), tf.TensorSpec(shape=[1], dtype=tf.float32)])
def f(x1, x2):
    v5 = x2
    v17 = x1[1]
    v16 = v5
    return (v16,)
