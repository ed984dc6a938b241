# repro: agc run empty-arg-shape-inner-zero.py:f --args '[{"dtype": "int32", "value": [[-1000], [-3], [1], [3]]}, {"dtype": "int32", "value": [], "shape": [0, 0, 2]}]'
# difftest (gen.py seed 5001): agc exited 3: argument 'x2' must be an int32 tensor of shape (0, 0, None), not an int32 tensor of shape (0,): the "shape" of an empty argument was ignored
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[4, 1], dtype=tf.int32), tf.TensorSpec(shape=[0, 0, None], dtype=tf.int32)])
def f(x1, x2):
    v6 = x1
    return (v6,)
