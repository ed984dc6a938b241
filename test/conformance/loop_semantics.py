"""TensorFlow 2.21's staged loops where a variable is first bound inside the loop, and
loops that carry tensors whose dimensions are known only at run time.

A name first assigned in a staged loop and used after it is accepted: AutoGraph stages
one iteration to learn its type, starts it as zeros of that type, and checks when the
graph runs that the loop ran at least once ("loop must iterate at least once to
initialize ..."). The target of a for over tf.range starts at the range's start instead.
Tensors of shape [None, None] carried beside values computed from tf.shape are equal in
shape at run time and must be accepted."""
import tensorflow as tf


@tf.function
def last_square(v):
    for x in v:
        sq = x * x
    return sq


@tf.function
def last_row_sum(m):
    for row in m:
        total = tf.reduce_sum(row)
        scaled = row * 2.0
    return total, scaled


@tf.function
def while_defines_result(n):
    i = 0
    while i < n:
        result = i * 10
        i += 1
    return result


@tf.function
def python_number_in_loop(n):
    for i in tf.range(n):
        flag = 1
    return flag


@tf.function
def tuple_first_bound_in_loop(v):
    for x in v:
        pair = (x, x + 1.0)
    return pair[0] + pair[1]


@tf.function
def range_target_after_loop(n):
    for i in tf.range(n):
        pass
    return i


@tf.function
def range_start_target_after_loop(n):
    for i in tf.range(3, n):
        pass
    return i


@tf.function
def row_target_after_loop(m):
    for row in m:
        pass
    return row


@tf.function
def defined_in_loop_with_break(v):
    for x in v:
        last = x
        if x > 2.0:
            break
    return last


@tf.function
def defined_in_nested_loops(n):
    for i in tf.range(n):
        for j in tf.range(n):
            inner = i * j
        outer = inner + 1
    return outer


@tf.function
def read_before_bound_in_loop(n):
    # Its first iteration reads it before binding it: TensorFlow refuses.
    for i in tf.range(n):
        acc = acc + i
    return acc


@tf.function
def defined_in_one_branch_in_loop(n):
    for i in tf.range(n):
        if i > 0:
            x = i
    return x


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def dynamic_vector_first_bound(v):
    for k in tf.range(2):
        w = v * tf.cast(k + 1, tf.float32)
    return w


# --- dimensions known only at run time, from different sources ----------------------------

@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def fill_beside_rows(m):
    acc = tf.fill([tf.shape(m)[1]], 0.0)
    for row in m:
        acc = acc + row
    return acc


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def zeros_like_row_carried(m):
    best = tf.zeros_like(m[0])
    for row in m:
        best = tf.maximum(best, row)
    return best


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def running_mean_of_rows(m):
    mean = tf.zeros([tf.shape(m)[1]])
    count = 0.0
    for row in m:
        count += 1.0
        mean = mean + (row - mean) / count
    return mean


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def rows_into_tensor_array(m):
    ta = tf.TensorArray(tf.float32, size=tf.shape(m)[0])
    i = 0
    for row in m:
        ta = ta.write(i, row * 2.0)
        i += 1
    return ta.stack()


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def matvec_carried(m):
    v = tf.ones([tf.shape(m)[1]])
    for _ in tf.range(3):
        v = tf.reduce_sum(m * v, axis=1) / tf.cast(tf.shape(m)[1], tf.float32)
    return v


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def explicit_while_over_rows(m):
    def body(i, acc):
        return i + 1, acc + m[i]

    _, acc = tf.while_loop(lambda i, acc: i < tf.shape(m)[0], body,
                           (0, tf.zeros([tf.shape(m)[1]])))
    return acc


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def first_bound_row_after_loop(m):
    for row in m:
        shifted = row - tf.reduce_min(row)
    return shifted
