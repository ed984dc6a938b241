# repro: agc run division-by-constant-zero-folded.py:f --args '[{"dtype": "int32", "value": 5}]'
# n % tf.zeros_like(n): TensorFlow raises, agc returned (a fold of the divisor's test left the check that guarded it unused)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n4):
    v10 = n4
    return (n4 % tf.zeros_like(v10),)
