# repro: agc run reduce-of-one-element-keeps-negative-zero.py:f --args '[{"dtype": "float32", "value": -4.0}]'
# reduce_mean of a scalar -0.0 (x % x for x = -4.0) is -0.0 in TensorFlow, which reduces nothing where every reduced dimension has size 1; agc added it to 0.0 and got 0.0, so x // it was -inf, not inf (difftest seed 113826)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x1):
    v3 = tf.reduce_mean(x1 % x1)
    v3 = x1 // v3
    return (v3,)
