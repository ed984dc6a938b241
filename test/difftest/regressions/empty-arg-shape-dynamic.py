# repro: agc run empty-arg-shape-dynamic.py:f --args '[{"dtype": "int32", "value": [], "shape": [0, 2, 2]}, {"dtype": "int64", "value": [4, -1, -1000, -3]}]'
# difftest (gen.py seed 5033): agc exited 3: argument 'x2' must be an int32 tensor of shape (None, None, None), not an int32 tensor of shape (0,): the "shape" of an empty argument was ignored
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None, None, None], dtype=tf.int32), tf.TensorSpec(shape=[None], dtype=tf.int64)])
def f(x2, x3):
    return x3
