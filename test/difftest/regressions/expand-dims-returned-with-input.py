# repro: agc run expand-dims-returned-with-input.py:f --args '[]'
# result[1] has shape [4] (agc), [4, 1] (TensorFlow): tf.expand_dims(v, 1) returned together with v gets v's shape (also seeds 1015, 2022, 20304: any expand_dims of a returned tensor)
import tensorflow as tf

@tf.function(input_signature=[])
def f():
    v4 = tf.range(0.0, 2.0, 0.5)
    v5 = tf.expand_dims(v4, 1)
    return (v4, v5)
