# repro: agc run dead-value-in-returning-branch.py:f --args '[{"dtype": "int32", "value": -2}, {"dtype": "float32", "value": [[[-0.5, -0.0, -3.5, 0.0], [-2.0, 0.5, 1.0, 1.5]]]}, {"dtype": "int32", "value": 0}]'
# v4 = x1 % 0 in a branch that returns, read after the if: AutoGraph moves what follows into the other branch, so tf.function computes nothing of it; agc carried it out and raised (difftest seed 84855)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32), tf.TensorSpec(shape=[None, None, 4], dtype=tf.float32), tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x1, x2, n3):
    if n3 > -2:
        v4 = x1 % 0
        return x2
    else:
        v4 = x1
    v8 = v4
    return x2 + (tf.reduce_max(x2) if v8 > 5 else tf.reduce_mean(x2))
