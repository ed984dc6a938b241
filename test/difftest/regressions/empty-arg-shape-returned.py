# repro: agc run empty-arg-shape-returned.py:f --args '[{"dtype": "float64", "value": [], "shape": [0, 1]}]'
# difftest (gen.py seed 5105): agc exited 3: argument 'x1' must be a float64 tensor of shape (0, None), not a float64 tensor of shape (0,): the "shape" of an empty argument was ignored
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[0, None], dtype=tf.float64)])
def f(x1):
    return (x1,)
