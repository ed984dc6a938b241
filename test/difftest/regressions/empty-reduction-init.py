# repro: agc run diff-20262274.py:f --args '[{"dtype": "bool", "value": [false, true]}, {"dtype": "float32", "value": [[-3.5, 3.0, 2.0, -3.5], [1e-30, 4.0, 1.5, -1.0]]}, {"dtype": "bool", "value": [[], [], [], []], "shape": [4, 0, 2]}]'
# difftest: agc killed by signal 11 (SIGSEGV)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.bool), tf.TensorSpec(shape=[2, None], dtype=tf.float32), tf.TensorSpec(shape=[4, 0, 2], dtype=tf.bool)])
def f(x1, x2, x3):
    ta5 = tf.TensorArray(tf.bool, size=1)
    for i6 in tf.range(1):
        ta5 = ta5.write(i6, x3)
    v7 = ta5.stack()
    return tf.zeros([4, 0, 2], dtype=tf.float64) <= (tf.cast(x1, tf.float64) if tf.reduce_all(v7) else tf.cast(x1, tf.float64))
