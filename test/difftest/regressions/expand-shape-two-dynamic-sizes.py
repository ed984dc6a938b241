# repro: agc run diff-20261926.py:f --args '[{"dtype": "int32", "value": 0}]'
# difftest: agc killed by signal 11 (SIGSEGV)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n4):
    v10 = tf.fill([n4], 2)
    ta18 = tf.TensorArray(tf.int32, size=n4)
    for i19 in tf.range(n4):
        ta18 = ta18.write(i19, v10)
    v20 = ta18.stack()
    v10 = tf.reshape(v20, [-1]) + 5
    return (v10,)
