# repro: agc run expand-dims-after-unit-dims.py:f --args '[{"dtype": "int64", "value": [[[3], [-5], [-4]]]}]'
# tf.expand_dims(v, -1) of a [1, None, 1] tensor: agc put the new 1 first and gave the second size the first's (shape [1, 1, 1, 1], not [1, 3, 1, 1]; difftest seed 91334)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[1, None, 1], dtype=tf.int64)])
def f(x1):
    v2 = tf.ones_like(x1)
    v5 = tf.expand_dims(v2, -1)
    v2 = -x1
    return (v2, v5)
