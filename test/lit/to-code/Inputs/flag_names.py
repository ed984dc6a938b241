import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def user_names_like_flags(n):
    break_8 = tf.constant(0)
    continue_8 = 1
    for i in tf.range(n):
        if i > 3:
            break
        if i % 2 == 0:
            continue
        break_8 += i * continue_8
    return break_8
