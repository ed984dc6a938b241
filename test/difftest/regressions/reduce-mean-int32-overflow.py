# repro: agc run reduce-mean-int32-overflow.py:f --args '[{"dtype": "int32", "value": [[[0, -4, -1, -4], [-4, 4, 1, 5], [4, -4, 1000, 4], [2, 1, 4, 2147483647]]]}]'
# tf.reduce_mean of int32 whose sum passes 2**31: agc -134217665 (wrapped sum / 16), TensorFlow 134217790
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None, 4, 4], dtype=tf.int32)])
def f(x3):
    return (tf.reduce_mean(x3),)
