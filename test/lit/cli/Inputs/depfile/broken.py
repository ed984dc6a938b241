import tensorflow as tf

import depfile_helper as helper


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def refused(x):
    return helper.scale(x) + undefined_name
