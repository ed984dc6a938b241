# repro: agc run continue-in-static-else-ignored.py:f --args '[{"dtype": "float32", "value": 3.5}, {"dtype": "int32", "value": 2}]'
# agc returns 2.0, TensorFlow 3.5: a `continue` under a staged if, inside the else of a static if, in a staged loop (for over range(tensor)), is ignored (the assignment after it runs)
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32), tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x1, n5):
    for i6 in range(n5):
        k7 = 3
        if k7 == 1:
            pass
        else:
            if x1 > 2.0:
                continue
            x1 -= 1.5
        x1 = 2.0
    return (x1,)
