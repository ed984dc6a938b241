import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32),
                              tf.TensorSpec([None], tf.int32)])
def embed(table, ids):
    """An embedding lookup: each id's row, its index checked (a run-time error)."""
    return tf.nn.embedding_lookup(table, ids) * 2.0


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32),
                              tf.TensorSpec([None, 2], tf.int64)])
def pick(x, positions):
    """tf.gather along the last axis of a batch of positions, int64 indices."""
    return tf.gather(x, positions)
