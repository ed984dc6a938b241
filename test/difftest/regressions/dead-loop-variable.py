# repro: agc run dead-loop-variable.py:f --args '[{"dtype": "int64", "value": [[5, 3, 1, 5], [2, 1000, 2, 0]]}, {"dtype": "int32", "value": 5}]'
# x1 is carried by the loop but never used after it: TensorFlow removes it and its x1 % x1, agc raised division by zero
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None, 4], dtype=tf.int64), tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x1, n3):
    x1 += x1 % x1
    i5 = 0
    while i5 < n3:
        i5 += 1
        x1 = -x1
    return i5
