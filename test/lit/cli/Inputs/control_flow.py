import tensorflow as tf

SCALE = 2


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def mixed(x, n):
    if SCALE > 1:
        x = x * SCALE
    else:
        x = x / SCALE
    for _ in range(3):
        x = x + 1.0
    if tf.reduce_sum(x) > 0:
        y = x
    else:
        y = -x
    i = 0
    while i < n:
        if i > 10:
            break
        y = y * 0.5
        i += 1
    return y
