"""tf.data loops, as AutoGraph converts them and users write them: `for x in ds` over
Dataset.range and from_tensor_slices (tensors, tuples and dicts of them), zip, and the
transformations map, take, skip, enumerate, repeat(n) and batch (drop_remainder too);
break in such a loop; ds.reduce. (The seed's for_in_tfdataset is in seeds.py.) (Datasets from files and generators, which agc refuses,
are lit tests: test/lit/diagnostics/dataset-sources.py.)"""
import tensorflow as tf


@tf.function
def range_bounds(n):
    total = tf.constant(0, tf.int64)
    for i in tf.data.Dataset.range(2, n, 3):
        total += i
    return total


@tf.function
def range_negative_step(n):
    out = tf.constant(0, tf.int64)
    for i in tf.data.Dataset.range(n, 0, -2):
        out = out * 10 + i
    return out


@tf.function
def slices_of_a_matrix(m):
    acc = tf.zeros([2])
    for row in tf.data.Dataset.from_tensor_slices(m):
        acc = acc + row
    return acc


@tf.function
def slices_of_a_tuple(x, y):
    total = 0.0
    for a, b in tf.data.Dataset.from_tensor_slices((x, y)):
        total += a * b
    return total


@tf.function
def slices_of_a_dict(x, y):
    best = tf.constant(-1.0)
    for item in tf.data.Dataset.from_tensor_slices({"score": x, "weight": y}):
        best = tf.maximum(best, item["score"] * item["weight"])
    return best


@tf.function
def slices_of_a_python_list():
    s = 0
    for v in tf.data.Dataset.from_tensor_slices([3, 4, 5]):
        s += v
    return s


@tf.function
def map_then_loop(x):
    out = 0.0
    for v in tf.data.Dataset.from_tensor_slices(x).map(lambda t: t * t):
        out += v
    return out


@tf.function
def map_over_tuples(x, y):
    ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: a - b)
    out = 0
    for v in ds:
        out = out * 10 + v
    return out


@tf.function
def take_and_skip(n):
    ds = tf.data.Dataset.range(10).skip(2).take(n)
    total = tf.constant(0, tf.int64)
    for v in ds:
        total = total * 10 + v
    return total


@tf.function
def enumerate_rows(x):
    out = tf.constant(0, tf.int64)
    for i, v in tf.data.Dataset.from_tensor_slices(x).enumerate(start=1):
        out += i * tf.cast(v, tf.int64)
    return out


@tf.function
def zip_two(x):
    out = tf.constant(0, tf.int64)
    for i, v in tf.data.Dataset.zip((tf.data.Dataset.range(100), tf.data.Dataset.from_tensor_slices(x))):
        out += i * tf.cast(v, tf.int64)
    return out


@tf.function
def repeat_twice(x):
    out = 0
    for v in tf.data.Dataset.from_tensor_slices(x).repeat(2):
        out = out * 10 + v
    return out


@tf.function
def batches(x):
    sums = tf.zeros([0])
    for b in tf.data.Dataset.from_tensor_slices(x).batch(2):
        sums = tf.concat([sums, tf.reshape(tf.reduce_sum(b), [1])], 0)
    return sums


@tf.function
def batches_drop_remainder(x):
    out = tf.zeros([2])
    for b in tf.data.Dataset.from_tensor_slices(x).batch(2, drop_remainder=True):
        out = out + b
    return out


@tf.function
def range_batches(n):
    out = tf.constant(0, tf.int64)
    for b in tf.data.Dataset.range(n).batch(3):
        out = out * 100 + tf.reduce_sum(b)
    return out


@tf.function
def break_in_dataset_loop(x):
    total = 0.0
    for v in tf.data.Dataset.from_tensor_slices(x):
        if v < 0:
            break
        total += v
    return total


@tf.function
def dataset_reduce(x):
    ds = tf.data.Dataset.from_tensor_slices(x)
    return ds.reduce(tf.constant(0.0), lambda state, v: state + v * 2.0)


@tf.function
def dataset_reduce_tuple_state(n):
    return tf.data.Dataset.range(n).reduce(
        (tf.constant(0, tf.int64), tf.constant(1, tf.int64)),
        lambda s, v: (s[0] + v, s[1] * (v + 1)))


@tf.function
def first_bound_in_dataset_loop(x):
    for v in tf.data.Dataset.from_tensor_slices(x):
        last = v
    return last


# --- filter, and batch of what map and filter made ----------------------------------------------

@tf.function
def filtered_sum(n):
    # tf.data's guide: keep the even numbers.
    total = tf.constant(0, tf.int64)
    for v in tf.data.Dataset.range(n).filter(lambda v: v % 2 == 0):
        total += v
    return total


@tf.function
def filter_then_map_take_enumerate(x):
    ds = tf.data.Dataset.from_tensor_slices(x).filter(lambda v: v > 0.0).map(lambda v: v * 10.0)
    out = tf.zeros([0])
    for i, v in ds.take(3).enumerate():
        out = tf.concat([out, [v + tf.cast(i, tf.float32)]], 0)
    return out


@tf.function
def filter_pairs(xs, ys):
    total = 0.0
    for x, y in tf.data.Dataset.from_tensor_slices((xs, ys)).filter(lambda x, y: x < y):
        total += x * y
    return total


@tf.function
def filter_reduce(n):
    return tf.data.Dataset.range(n).filter(lambda v: v > 2).reduce(
        tf.constant(0, tf.int64), lambda s, v: s + v)


@tf.function
def batch_after_map(x):
    out = tf.constant(0.0)
    for b in tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * v).batch(2):
        out = out * 10.0 + tf.reduce_sum(b)
    return out


@tf.function
def batch_after_filter(n):
    out = tf.constant(0, tf.int64)
    for b in tf.data.Dataset.range(n).filter(lambda v: v % 3 != 0).batch(2, drop_remainder=True):
        out = out * 100 + tf.reduce_sum(b)
    return out


@tf.function
def filter_keeps_nothing(x):
    total = 0.0
    for v in tf.data.Dataset.from_tensor_slices(x).filter(lambda v: v > 100.0):
        total += v
    return total


@tf.function
def filter_predicate_not_bool(n):
    for v in tf.data.Dataset.range(n).filter(lambda v: v + 1):
        n += 1
    return n
