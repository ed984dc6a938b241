# repro: agc run index-into-empty-slice.py:f --args '[{"dtype": "float32", "value": [[[], [], []]], "shape": [1, 3, 0]}]'
# x1[:, 3] has no elements whatever the index: TensorFlow still checks it and raises, agc returned an empty tensor
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[1, None, 0], dtype=tf.float32)])
def f(x1):
    v7 = x1[:, 3]
    return (v7,)
