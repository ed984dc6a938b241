"""A dynamic RNN that accumulates its states in a tf.TensorArray inside a staged loop,
and the padded concatenation that keeps a loop variable's shape fixed with set_shape."""
import tensorflow as tf


def rnn_step(inp, state):
    return inp + state


@tf.function
def dynamic_rnn(input_data, initial_state):
    # [batch, time, features] -> [time, batch, features]
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_step(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])


@tf.function
def concat_with_padding():
    x = tf.zeros([5, 10])
    for i in tf.range(5):
        x = tf.concat([x[:i], tf.ones([1, 10]), tf.zeros([4 - i, 10])], axis=0)
        x.set_shape([5, 10])
    return x
