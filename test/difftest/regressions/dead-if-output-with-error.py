# repro: agc run dead-if-output-with-error.py:f --args '[{"dtype": "int32", "value": [1, -2, 4]}, {"dtype": "float32", "value": [[]], "shape": [1, 0, 2]}, {"dtype": "int64", "value": [[3], [1099511627776]]}]'
# x1 is an output of the staged if that nothing reads: tf.function prunes it with its division by zero; agc ran the if whole and raised
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32), tf.TensorSpec(shape=[1, 0, 2], dtype=tf.float32), tf.TensorSpec(shape=[2, 1], dtype=tf.int64)])
def f(x1, x2, x3):
    if tf.reduce_sum(x3) < 2:
        pass
    else:
        x1 %= tf.cast(x1 > 1, tf.int32)
        return tf.zeros([1, 0, 2])
    v9 = x1
    return x2
