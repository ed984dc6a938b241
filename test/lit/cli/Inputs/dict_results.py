import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def metrics(values):
    out = {"total": tf.reduce_sum(values)}
    out['mean 2"'] = tf.reduce_mean(values)
    out[3] = tf.size(values)
    return out
