# repro: agc run dead-if-output-beside-return.py:f --args '[{"dtype": "int32", "value": [[-2, -1, 1, -1], [-1000, 1, 0, 4], [-4, 0, 5, -4]]}]'
# x1 = v2 % v2 in a branch that returns, read later only by a dead name: tf.function computes nothing of it; agc raised
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[3, None], dtype=tf.int32)])
def f(x1):
    v2 = x1
    if tf.reduce_sum(v2) >= 2:
        pass
    else:
        x1 = v2 % v2
        return v2
    v4 = x1
    return v2
