# repro: agc run floormod-by-denormal.py:f --args '[{"dtype": "float32", "value": [[3.5, 2.0], [-4.0, 0.0], [-4.0, 3.5]]}]'
# x % exp(x) where exp(x) is a denormal float32: TensorFlow's kernels flush it to zero, so the result is NaN; agc computed with the denormal (difftest seed 103494)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[3, 2], dtype=tf.float32)])
def f(x3):
    for i6 in tf.range(2):
        x3 *= [2.0] - tf.constant([-3.0])
    x3 %= tf.exp(x3)
    return x3
