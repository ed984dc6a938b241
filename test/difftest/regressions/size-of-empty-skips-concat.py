# repro: agc run size-of-empty-skips-concat.py:f --args '[{"dtype": "int32", "value": [[], []], "shape": [2, 0, 4]}]'
# tf.size of a tensor whose static shape holds a 0 is the constant 0 in TensorFlow, so the concat whose shapes disagree is pruned, not run; agc ran it and raised (difftest seed 104957)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None, 0, None], dtype=tf.int32)])
def f(x1):
    v2 = x1
    v3 = tf.size(tf.concat([v2, v2[:, :, :1]], axis=1))
    return (v3,)
