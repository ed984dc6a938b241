"""Python lists that hold tensors, converted to one tensor as TensorFlow converts them (its
autopacking: tf.stack of the items, level by level, in the dtype of the first tensor found,
or of the dtype asked for, to which the tensors are cast; Python numbers converted to it).
Written as users write them: indices for a scatter built from a loop counter, a row of a
tensor and constants, a list as an operand."""
import tensorflow as tf


@tf.function
def mixed_numbers(x):
    return tf.convert_to_tensor([x, 0, 2.5])


@tf.function
def nested_rows(i):
    return tf.convert_to_tensor([[i], [i + 1]])


@tf.function
def nested_deeper(i):
    return tf.convert_to_tensor([[i, 1], [2, 3]])


@tf.function
def list_beside_tensor(i):
    return tf.convert_to_tensor([[1, 2], tf.stack([i, i])])


@tf.function
def scatter_at_counter(i):
    counts = tf.zeros([4], tf.int32)
    return tf.tensor_scatter_nd_add(counts, [[i]], [1])


@tf.function
def histogram(ids):
    counts = tf.zeros([5], tf.int32)
    for k in tf.range(tf.size(ids)):
        bucket = ids[k] % 5
        counts = tf.tensor_scatter_nd_add(counts, [[bucket]], [1])
    return counts


@tf.function
def stack_number_first(x):
    return tf.stack([0, x])


@tf.function
def stack_rows_axis1(x):
    return tf.stack([[0.0, 1.0], tf.stack([x, x])], axis=1)


@tf.function
def add_list(x):
    return x + [1, x]


@tf.function
def add_list_of_other_dtype(x, i):
    # The list converts to x's dtype: its int32 tensor is cast.
    return x + [i]


@tf.function
def convert_with_dtype(i):
    return tf.convert_to_tensor([i, 2], tf.float32)


@tf.function
def bool_among_ints(i):
    return tf.convert_to_tensor([i, True])


@tf.function
def int64_first(i):
    return tf.convert_to_tensor([tf.cast(i, tf.int64), 1])


@tf.function
def tuple_of_tensor(i):
    return tf.convert_to_tensor((i, 1))


@tf.function
def concat_lists(i):
    return tf.concat([[i], [1]], 0)


@tf.function
def reshape_to_list(x, i):
    return tf.reshape(tf.stack([x, x, x]), [i, 1])


@tf.function
def float_into_int_list(i):
    return tf.convert_to_tensor([i, 2.5])


@tf.function
def number_into_bool_list(b):
    return tf.convert_to_tensor([b, 1])


@tf.function
def two_tensor_dtypes(i, x):
    return tf.convert_to_tensor([i, x])


@tf.function
def ragged_rows(i):
    return tf.convert_to_tensor([[i], [1, 2]])


@tf.function
def empty_row(i):
    return tf.convert_to_tensor([[i], []])


@tf.function
def reshape_sizes_from_tensors(x, i, j):
    return tf.reshape(x, [i, j])


@tf.function
def reshape_minus_one_from_tensor(x, i, j):
    return tf.reshape(x, [i, j])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def convert_dynamic_rows(a, b):
    # Sizes known only at run time: they must agree when it runs (TensorFlow's pack error).
    return tf.convert_to_tensor([a, b])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def add_dynamic_rows(a, b):
    return tf.zeros([2, 2]) + [a, b]
