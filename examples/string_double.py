"""The tf.function guide's `double`, traced for strings: `a + a` joins a string with itself,
as TensorFlow 2.21 traces it again for a tf.string argument ("a" -> "aa")."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.string)])
def double(a):
    return a + a


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.string),
                              tf.TensorSpec(shape=[], dtype=tf.int32)])
def label(name, n):
    return tf.strings.join([tf.strings.upper(name), tf.strings.as_string(n)], separator="#")
