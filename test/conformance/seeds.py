"""The seed examples of TensorFlow's guides, restated: the tanh loop, my_function, double,
the automatic control dependencies example, fizzbuzz, next_collatz, the loops of the guide,
the dynamic RNN, concat_with_padding, and the buggy_* programs TensorFlow refuses."""
import tensorflow as tf

v = tf.Variable(5)
a = tf.Variable(1.0)
b = tf.Variable(2.0)


@tf.function
def squash(x):
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x


@tf.function
def my_function(x):
    if tf.reduce_sum(x) <= 1:
        return x * x
    else:
        return x - 1


@tf.function
def double(t):
    return t + t


@tf.function
def find_next_odd():
    v.assign(v + 1)
    if v % 2 == 0:
        v.assign(v + 1)
    return v.read_value()


@tf.function
def assign_then_add(x, y):
    a.assign(y * b)
    b.assign_add(x * a)
    return a + b


@tf.function
def fizzbuzz(n):
    for i in tf.range(1, n + 1):
        print('Tracing for loop')
        if i % 15 == 0:
            tf.print('fizzbuzz')
        elif i % 3 == 0:
            tf.print('fizz')
        elif i % 5 == 0:
            tf.print('buzz')
        else:
            tf.print(i)


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    print("Tracing with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


@tf.function
def for_in_range():
    x = 0
    for i in range(5):
        x += i
    return x


@tf.function
def for_in_tfrange():
    x = tf.constant(0, dtype=tf.int32)
    for i in tf.range(5):
        x += i
    return x


@tf.function
def while_py_cond():
    x = 5
    while x > 0:
        x -= 1
    return x


@tf.function
def while_tf_cond():
    x = tf.constant(5)
    while x > 0:
        x -= 1
    return x


@tf.function
def while_tf_true_tf_break(x):
    while tf.constant(True):
        if tf.equal(x, 0):
            break
        x -= 1
    return x


@tf.function
def tf_for_tf_break():
    x = 0
    for i in tf.range(5):
        if tf.equal(i, 3):
            break
        x += i
    return x


def rnn_step(inp, state):
    return inp + state


@tf.function
def dynamic_rnn(input_data, initial_state):
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


@tf.function
def buggy_while_py_true_tf_break(x):
    while True:
        if tf.equal(x, 0):
            break
        x -= 1
    return x


@tf.function
def buggy_py_for_tf_break():
    x = 0
    for i in range(5):
        if tf.equal(i, 3):
            break
        x += i
    return x


@tf.function
def buggy_loop_type_changes():
    x = tf.constant(0, dtype=tf.float32)
    for i in tf.range(3):
        x = i
    return x


@tf.function
def buggy_concat():
    x = tf.ones([0, 10])
    for i in tf.range(5):
        x = tf.concat([x, tf.ones([1, 10])], axis=0)
    return x


@tf.function
def for_in_tfdataset():
    x = tf.constant(0, dtype=tf.int64)
    for i in tf.data.Dataset.range(5):
        x += i
    return x
