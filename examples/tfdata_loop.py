"""The tf.data loop of TensorFlow's tf.function guide: a for over a tf.data.Dataset, which
AutoGraph makes Dataset.reduce and agc a staged loop over the dataset's elements."""
import tensorflow as tf


@tf.function
def for_in_tfdataset():
    x = tf.constant(0, dtype=tf.int64)
    for i in tf.data.Dataset.range(5):
        x += i
    return x
