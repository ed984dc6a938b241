import tensorflow as tf

model = tf.keras.Sequential([])


def fine(x):
    return x + 1
