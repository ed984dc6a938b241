"""Functions with input signatures for the code generator's fuzz test: staged loops with
break, continue and early returns, tf.TensorArray, tf.Variable, tf.print, slicing."""
import tensorflow as tf

total = tf.Variable(0)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    total.assign_add(steps)
    return steps


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def first_negative(x):
    found = tf.constant(-1)
    for i in tf.range(tf.shape(x)[0]):
        if x[i] < 0:
            found = i
            break
    return found


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def sum_odd(n):
    s = 0
    for i in tf.range(n):
        if i % 2 == 0:
            continue
        s += i
    return s


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def sign(x):
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return 0.0


@tf.function(input_signature=[tf.TensorSpec([4, 3], tf.float32)])
def rows(x):
    ta = tf.TensorArray(tf.float32, size=4)
    for i in tf.range(4):
        ta = ta.write(i, tf.nn.softmax(x[i]) * 2.0)
    tf.print("rows:", ta.stack(), summarize=2)
    return tf.reduce_max(ta.stack(), axis=1), tf.argmax(x, axis=0)


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([3, 2], tf.float32)])
def dense(x, w):
    y = tf.matmul(x, w)
    y = tf.where(y > 0, y, 0.1 * y)
    return tf.reshape(tf.transpose(y), [-1]), tf.concat([x[:, :1], x[:, 2:]], axis=1)


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def newton_sqrt(a):
    x = a
    i = 0
    while i < 20 and tf.abs(x * x - a) > 1e-6:
        x = 0.5 * (x + a / x)
        i += 1
    return x if a > 0 else tf.constant(0.0)
