# repro: agc run for-over-unread-tensor-runs-it.py:f --args '[{"dtype": "int32", "value": [[[-1], [-4]], [[1000], [-5]], [[-3], [-3]], [[-3], [3]]]}, {"dtype": "int64", "value": 0}, {"dtype": "int32", "value": 3}, {"dtype": "int32", "value": 4}]'
# A staged for over x1 whose rows the body never reads, x1's static length known: TensorFlow's While takes x1 as an input, so x1 % 0 runs and raises; agc counted the rows from the static shape and pruned x1's computation (difftest seed 106159)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[4, 2, 1], dtype=tf.int32), tf.TensorSpec(shape=[], dtype=tf.int64), tf.TensorSpec(shape=[], dtype=tf.int32), tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x1, x2, n3, n4):
    v5 = x2
    x1 = x1 % 0
    for e10 in x1:
        ta11 = tf.TensorArray(tf.int32, size=n3)
        for i12 in tf.range(n3):
            ta11 = ta11.write(i12, n4)
        v14 = x2 + tf.reduce_sum(x2)
        v5 = v14
    return v5
