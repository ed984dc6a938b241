"""The TensorFlow functions users reach for beyond arithmetic, as their API documentation
writes them: activations, losses, statistics, norms, one-hot, band parts, einsum, split
and unstack, segment sums, gather, tile, pad, reverse and cumulative sums, with static
and dynamic shapes, and the misuses TensorFlow refuses."""
import numpy as np
import tensorflow as tf

NONE_F32 = tf.TensorSpec([None], tf.float32)
NONE2_F32 = tf.TensorSpec([None, None], tf.float32)


# --- Activations ---------------------------------------------------------------------------

@tf.function
def activations(x):
    return (tf.nn.leaky_relu(x), tf.nn.leaky_relu(x, alpha=0.01), tf.nn.elu(x),
            tf.nn.selu(x), tf.nn.gelu(x), tf.nn.gelu(x, approximate=True),
            tf.nn.silu(x), tf.nn.swish(x, beta=2.0), tf.nn.softsign(x), tf.nn.softplus(x),
            tf.math.log_sigmoid(x), tf.nn.relu6(x))


@tf.function(input_signature=[NONE_F32])
def activations_dynamic(x):
    return tf.nn.gelu(x) + tf.nn.elu(x) * tf.nn.leaky_relu(x, 0.3)


@tf.function
def leaky_relu_of_ints(x):
    # Integers are computed as float32.
    return tf.nn.leaky_relu(x)


@tf.function
def gelu_of_ints(x):
    return tf.nn.gelu(x)


@tf.function
def dense_layer(x, w, b):
    # A hand-written layer: tf.nn.bias_add, then an activation.
    return tf.nn.gelu(tf.nn.bias_add(tf.matmul(x, w), b))


# --- Statistics ------------------------------------------------------------------------------

@tf.function
def variance_and_std(x):
    return (tf.math.reduce_variance(x), tf.math.reduce_variance(x, axis=0),
            tf.math.reduce_std(x, axis=1), tf.math.reduce_std(x, axis=-1, keepdims=True))


@tf.function
def variance_of_ints(x):
    return tf.math.reduce_variance(x)


@tf.function
def logsumexp(x):
    return (tf.math.reduce_logsumexp(x), tf.math.reduce_logsumexp(x, axis=1),
            tf.reduce_logsumexp(x, axis=0, keepdims=True))


@tf.function(input_signature=[NONE2_F32])
def logsumexp_dynamic(x):
    return tf.math.reduce_logsumexp(x, axis=-1)


@tf.function
def moments(x):
    mean, variance = tf.nn.moments(x, axes=[0])
    return mean, variance


@tf.function
def moments_keepdims(x):
    return tf.nn.moments(x, axes=[0, 1], keepdims=True)


@tf.function
def count_nonzero(x):
    return tf.math.count_nonzero(x), tf.math.count_nonzero(x, axis=1, dtype=tf.int32)


# --- Floats that are not numbers ----------------------------------------------------------------

@tf.function
def classify(x):
    return tf.math.is_nan(x), tf.math.is_inf(x), tf.math.is_finite(x)


@tf.function
def nan_to_zero(x):
    return tf.where(tf.math.is_nan(x), tf.zeros_like(x), x)


@tf.function
def is_nan_of_ints(x):
    return tf.math.is_nan(x)


@tf.function
def divide_no_nan(x, y):
    return tf.math.divide_no_nan(x, y)


# --- Norms and clipping -------------------------------------------------------------------------

@tf.function
def norms(x):
    return (tf.norm(x), tf.norm(x, axis=1), tf.norm(x, ord=1, axis=0),
            tf.norm(x, ord=np.inf, axis=1), tf.linalg.norm(x, ord="fro", axis=[0, 1]),
            tf.math.reduce_euclidean_norm(x, axis=0), tf.norm(x, axis=-1, keepdims=True))


@tf.function
def norm_matrix_ord(x):
    return tf.norm(x, ord=1, axis=[0, 1]), tf.norm(x, ord=np.inf, axis=[1, 0])



@tf.function
def clip_by_norm(x):
    return tf.clip_by_norm(x, 1.0), tf.clip_by_norm(x, 2.0, axes=[1])


@tf.function
def l2_normalize(x):
    return tf.math.l2_normalize(x, axis=1), tf.nn.l2_normalize(x), tf.nn.l2_loss(x)


# --- Losses ---------------------------------------------------------------------------------

@tf.function
def sigmoid_cross_entropy(labels, logits):
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)


@tf.function
def softmax_cross_entropy(labels, logits):
    return tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)


@tf.function
def sparse_softmax_cross_entropy(labels, logits):
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return loss, tf.reduce_mean(loss)


@tf.function
def sparse_labels_rank_mismatch(labels, logits):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


# --- One-hot, band parts, diagonals, matvec ---------------------------------------------------

@tf.function
def one_hot(indices):
    return (tf.one_hot(indices, 3), tf.one_hot(indices, 4, on_value=5, off_value=-1),
            tf.one_hot(indices, 3, axis=0), tf.one_hot(indices, 2, dtype=tf.float64),
            tf.one_hot(indices, 3, on_value=True, off_value=False))


@tf.function
def one_hot_depth_tensor(indices, depth):
    return tf.one_hot(indices, depth)


@tf.function
def one_hot_of_floats(x):
    return tf.one_hot(x, 3)


@tf.function
def band_part(m):
    return (tf.linalg.band_part(m, 0, -1), tf.linalg.band_part(m, -1, 0),
            tf.linalg.band_part(m, 1, 1), tf.linalg.band_part(m, 0, 0))


@tf.function(input_signature=[NONE2_F32])
def band_part_dynamic(m):
    return tf.linalg.band_part(m, 1, 0)


@tf.function
def diag(d):
    return tf.linalg.diag(d), tf.linalg.diag(d, name="diagonal", k=0)


@tf.function
def matvec(a, b):
    return tf.linalg.matvec(a, b), tf.linalg.matvec(a, b, transpose_a=True)


# --- einsum -------------------------------------------------------------------------------------

@tf.function
def einsum_matmul(a, b):
    return tf.einsum("ij,jk->ik", a, b), tf.einsum("ij,kj->ik", a, b * 0.0 + 1.0)


@tf.function
def einsum_forms(a, b):
    # The tf.einsum documentation's examples: dot, outer, transpose, sums, batch matmul.
    return (tf.einsum("i,i->", a[0], b[:, 0]), tf.einsum("i,j->ij", a[0], b[:, 1]),
            tf.einsum("ij->ji", a), tf.einsum("ij->", a), tf.einsum("ij->j", a),
            tf.einsum("ij,j->i", a, b[:, 0]), tf.einsum("ij", a), tf.einsum("ij,jk", a, b))


@tf.function
def einsum_batch(x, y):
    return tf.einsum("bij,bjk->bik", x, y), tf.einsum("bij,bkj->bik", x, y)


@tf.function
def einsum_wrong_rank(a):
    return tf.einsum("ijk->i", a)


# --- Split and unstack ------------------------------------------------------------------------

@tf.function
def split_and_unstack(x):
    a, b = tf.split(x, 2, axis=1)
    c, d, e = tf.split(x, [1, -1, 1], axis=1)
    rows = tf.unstack(x)
    cols = tf.unstack(x, axis=1)
    return a, b, c, d, e, rows[0] + rows[1], cols[-1]


@tf.function(input_signature=[NONE2_F32])
def unstack_dynamic_with_num(x):
    a, b = tf.unstack(x, num=2)
    return a * b


@tf.function
def split_uneven(x):
    return tf.split(x, 3)


@tf.function(input_signature=[NONE_F32])
def unstack_unknown_num(x):
    return tf.unstack(x)


# --- Segments ---------------------------------------------------------------------------------

@tf.function
def segment_sums(data, ids):
    return tf.math.segment_sum(data, ids), tf.math.unsorted_segment_sum(data, ids, 4)


@tf.function
def unsorted_segment_sum_rows(data, ids):
    return tf.math.unsorted_segment_sum(data, ids, num_segments=3)


# --- gather ---------------------------------------------------------------------------------

@tf.function
def gather(params, indices):
    return (tf.gather(params, indices), tf.gather(params, indices, axis=1),
            tf.gather(params, [[0, 1], [1, 0]]), tf.gather(params, 1, axis=-1))


@tf.function(input_signature=[NONE2_F32, tf.TensorSpec([None], tf.int32)])
def gather_dynamic(params, indices):
    return tf.gather(params, indices)


@tf.function
def gather_int64_indices(params, indices):
    return tf.gather(params, indices)


@tf.function
def embedding_lookup(table, ids):
    # An embedding, as users write it: rows of a table.
    return tf.reduce_sum(tf.gather(table, ids), axis=0)


@tf.function
def gather_float_indices(params, indices):
    return tf.gather(params, indices)


# --- tile, pad, reverse -------------------------------------------------------------------------

@tf.function
def tile(x):
    return tf.tile(x, [2, 3]), tf.tile(x, tf.constant([1, 2])), tf.tile(x, [0, 1])


@tf.function(input_signature=[NONE2_F32, tf.TensorSpec([2], tf.int32)])
def tile_dynamic(x, multiples):
    return tf.tile(x, multiples)


@tf.function
def tile_wrong_length(x):
    return tf.tile(x, [2])


@tf.function
def pad(x):
    return (tf.pad(x, [[1, 0], [2, 1]]), tf.pad(x, [[0, 1], [1, 1]], constant_values=7),
            tf.pad(x, [[1, 1], [1, 1]], mode="REFLECT"),
            tf.pad(x, [[1, 1], [2, 2]], mode="SYMMETRIC"))


@tf.function(input_signature=[NONE_F32])
def pad_dynamic(x):
    return tf.pad(x, [[2, 1]]), tf.pad(x, [[1, 1]], "REFLECT")


@tf.function
def pad_negative(x):
    return tf.pad(x, [[-1, 0]])


@tf.function
def reverse(x):
    return tf.reverse(x, [0]), tf.reverse(x, axis=[-1]), tf.reverse(x, [0, 1])


@tf.function(input_signature=[NONE_F32])
def reverse_dynamic(x):
    return tf.reverse(x, [0])


# --- Cumulative sums and products ----------------------------------------------------------------

@tf.function
def cumulative(x):
    return (tf.cumsum(x), tf.cumsum(x, axis=1), tf.math.cumsum(x, exclusive=True),
            tf.cumsum(x, axis=1, reverse=True), tf.cumsum(x, exclusive=True, reverse=True),
            tf.math.cumprod(x, axis=1), tf.math.cumprod(x, axis=-1, exclusive=True))


@tf.function(input_signature=[NONE_F32])
def cumsum_dynamic(x):
    return tf.cumsum(x), tf.math.cumprod(x, reverse=True)


@tf.function
def cumsum_of_bools(x):
    return tf.cumsum(x)


@tf.function
def range_of_int32_as_int64(n):
    # dtype= casts a tensor bound of another dtype.
    return tf.range(n, dtype=tf.int64), tf.range(1, n, dtype=tf.float32)


@tf.function
def rsqrt(x):
    return tf.math.rsqrt(x)


# --- Sorting, top-k, positions of true elements, masks ------------------------------------------

@tf.function
def sorting(x):
    return (tf.sort(x), tf.sort(x, direction="DESCENDING"), tf.argsort(x),
            tf.argsort(x, direction="DESCENDING"), tf.sort(x, axis=-1))


@tf.function(input_signature=[NONE_F32])
def sort_dynamic(x):
    return tf.sort(x), tf.argsort(x, direction="DESCENDING", stable=True)


@tf.function
def sort_axis_zero(x):
    return tf.sort(x, axis=0)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def sort_rows_with_ties(x):
    # Rows of odd lengths with ties (-0.0 and 0.0 among them): the order of equal
    # elements is TensorFlow's (the earlier first), along either axis.
    return (tf.sort(x), tf.argsort(x), tf.sort(x, direction="DESCENDING"),
            tf.argsort(x, direction="DESCENDING"), tf.argsort(x, axis=0))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def sort_generated(n):
    # n values in [-50, 50], out of order and with many ties; as unsigned bytes too.
    x = tf.math.floormod(tf.range(n) * 7919, 101) - 50
    order = tf.argsort(x)
    return (order, tf.sort(x, direction="DESCENDING"), tf.argsort(tf.cast(x, tf.uint8)),
            tf.reduce_all(tf.gather(x, order)[1:] >= tf.gather(x, order)[:-1]))


@tf.function
def sort_bad_direction(x):
    return tf.sort(x, direction="UP")


@tf.function
def top_k(x):
    values, indices = tf.math.top_k(x, k=2)
    best = tf.nn.top_k(x)
    return values, indices, best.values, best.indices


@tf.function
def top_k_too_many(x):
    return tf.math.top_k(x, k=5)


@tf.function(input_signature=[NONE_F32, tf.TensorSpec([], tf.int32)])
def top_k_dynamic(x, k):
    return tf.math.top_k(x, k)


@tf.function
def where_true(x):
    return tf.where(x > 0), tf.where(x > 100)


@tf.function
def boolean_mask(x):
    return (tf.boolean_mask(x, x[:, 0] > 1.0), tf.boolean_mask(x, x > 2.0),
            tf.boolean_mask(x, [True, False, True], axis=1))


@tf.function(input_signature=[NONE2_F32, tf.TensorSpec([None], tf.bool)])
def boolean_mask_dynamic(x, mask):
    return tf.boolean_mask(x, mask)


@tf.function
def gather_nd(params):
    return (tf.gather_nd(params, [[0, 1], [1, 0]]), tf.gather_nd(params, [[1]]),
            tf.gather_nd(params, tf.constant([[[1, 1]], [[0, 0]]])))


@tf.function
def gather_nd_out_of_range(params, indices):
    return tf.gather_nd(params, indices)


# --- Layers as users write them by hand -------------------------------------------------------

@tf.function
def batch_norm(x):
    mean, variance = tf.nn.moments(x, axes=[0])
    return (tf.nn.batch_normalization(x, mean, variance, offset=0.5, scale=2.0,
                                      variance_epsilon=1e-3),
            tf.nn.batch_normalization(x, mean, variance, None, None, 1e-5))


@tf.function
def embedding(table, ids):
    return tf.nn.embedding_lookup(table, ids)


@tf.function
def crelu_and_xlogy(x, y):
    return tf.nn.crelu(x), tf.math.xlogy(x, y), tf.nn.crelu(tf.stack([x, y]), 0)


# --- Every tf.nn alias of a tf.math function --------------------------------------------------

@tf.function
def nn_aliases_of_math(x):
    return (tf.nn.l2_normalize(x), tf.nn.log_softmax(x), tf.nn.sigmoid(x), tf.nn.softmax(x),
            tf.nn.softplus(x), tf.nn.softsign(x), tf.nn.tanh(x), tf.nn.top_k(x, 2).values,
            tf.nn.zero_fraction(x))


@tf.function
def zero_fraction(x):
    return tf.math.zero_fraction(x), tf.math.zero_fraction(x > 0.0)


@tf.function
def in_top_k(targets, predictions, k):
    # Ties count for the target (only strictly greater ones push it out); a target out of
    # range, or a row holding NaN or inf, is False.
    return tf.math.in_top_k(targets, predictions, k), tf.nn.in_top_k(targets, predictions, 1)


@tf.function
def size_out_type(x):
    return tf.size(x, out_type=tf.int64), tf.size(x), tf.size(x, tf.int64), tf.rank(x)


# --- Stateless random numbers (TensorFlow's Philox, bit for bit) ----------------------------------

@tf.function
def stateless_uniform(seed):
    return (tf.random.stateless_uniform([7], seed=seed),
            tf.random.stateless_uniform([3, 2], seed=seed, minval=-1.0, maxval=2.0,
                                        dtype=tf.float64),
            tf.random.stateless_uniform([2, 3, 2], seed=seed, maxval=10.0))


@tf.function
def stateless_normal(seed):
    return (tf.random.stateless_normal([5], seed=seed, mean=1.0, stddev=2.0),
            tf.random.stateless_normal([2, 4], seed=seed))


@tf.function
def stateless_integers(seed):
    # Integers: lo + bits % (hi - lo), or every bit where minval and maxval are None.
    return (tf.random.stateless_uniform([9], seed=seed, minval=-3, maxval=10, dtype=tf.int32),
            tf.random.stateless_uniform([2, 3], seed=seed, minval=-(2 ** 40), maxval=2 ** 41,
                                        dtype=tf.int64),
            tf.random.stateless_uniform([5], seed=seed, minval=None, maxval=None,
                                        dtype=tf.uint32),
            tf.random.stateless_uniform([3], seed=seed, minval=None, maxval=None,
                                        dtype=tf.int64),
            tf.random.stateless_uniform([4], seed=seed, minval=-2147483648,
                                        maxval=2147483647, dtype=tf.int32))


@tf.function
def stateless_dice(seed, n):
    # n rolls of a die, bounds as tensors.
    return tf.random.stateless_uniform([n], seed=seed, minval=tf.constant(1),
                                       maxval=tf.constant(7), dtype=tf.int32)


@tf.function
def stateless_bounds_reversed(seed):
    # TensorFlow's kernel: "Need minval < maxval", when it runs.
    return tf.random.stateless_uniform([2], seed=seed, minval=5, maxval=5, dtype=tf.int32)


@tf.function
def stateless_int_without_maxval(seed):
    return tf.random.stateless_uniform([2], seed=seed, dtype=tf.int32)


@tf.function
def stateless_normal_float64(seed):
    return (tf.random.stateless_normal([5], seed=seed, dtype=tf.float64),
            tf.random.stateless_normal([2, 3], seed=seed, mean=1.0, stddev=2.0,
                                       dtype=tf.float64))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def stateless_noise_like(x):
    # Noise of a shape known only at run time, from a fixed seed.
    return x + tf.random.stateless_normal(tf.shape(x), seed=[42, 0], stddev=0.1)


@tf.function
def stateless_random_in_loop(n):
    # A different seed each step: the same numbers as TensorFlow's, step by step.
    total = tf.zeros([3])
    for i in tf.range(n):
        total += tf.random.stateless_uniform([3], seed=tf.stack([i, 7]))
    return total


@tf.function
def lists_holding_tensors(x, y):
    # A list of tensors (and Python numbers) where an op takes a tensor packs them.
    return tf.concat([x, [y * 2.0, 1.0]], 0), tf.reduce_sum([y, y, 3.0]), tf.add([y, 1.0], x[:2])


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def gather_batch_dims_top_k(m):
    # tf.gather's batch_dims, as with top_k's indices: each row gathers from its own row.
    vals, idx = tf.math.top_k(m, k=2)
    return vals, tf.gather(m, idx, batch_dims=1), tf.gather(m, idx, axis=1, batch_dims=-1)


@tf.function(input_signature=[tf.TensorSpec([None, 3, 2], tf.int32),
                              tf.TensorSpec([None, 4], tf.int32)])
def gather_batch_dims_axis(p, i):
    # A batch of one dimension gathering along axis 1 and axis 2; the batch sizes must
    # agree (TensorFlow's error where they do not).
    return tf.gather(p, i, axis=1, batch_dims=1), tf.gather(p, i[:, :2] % 2, axis=2, batch_dims=1)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([2, None, None], tf.int32)])
def diagonals(m, batch):
    # tf.linalg.diag_part and trace of a matrix, tall, wide or square, and of a batch.
    return (tf.linalg.diag_part(m), tf.linalg.trace(m), tf.linalg.diag_part(batch),
            tf.linalg.trace(batch))


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.float32)])
def bincounts(labels, weights):
    # tf.math.bincount: counts, weighted sums, minlength and maxlength; a negative value is
    # TensorFlow's error.
    return (tf.math.bincount(labels), tf.math.bincount(labels, minlength=6),
            tf.math.bincount(labels, weights=weights, maxlength=3),
            tf.math.bincount(labels, dtype=tf.int64, minlength=2, maxlength=2))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def roll_and_repeat(x, shift):
    # tf.roll by a Python int and by a tensor (any sign, beyond the length), over one axis
    # and two; tf.repeat of every element and along an axis.
    m = tf.reshape(tf.range(6), [2, 3])
    return (tf.roll(x, 2, 0), tf.roll(x, shift, axis=0), tf.roll(m, [1, -1], [0, 1]),
            tf.repeat(x, 2), tf.repeat(m, 3, axis=1), tf.repeat(m, 2, axis=0))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32),
                              tf.TensorSpec([], tf.int32)])
def no_nan_and_linspace(x, y, n):
    # multiply_no_nan and reciprocal_no_nan (0 where the factor or x is 0, NaN and inf
    # aside); linspace's points, the last exactly stop.
    return (tf.math.multiply_no_nan(x, y), tf.math.reciprocal_no_nan(x),
            tf.linspace(-1.0, 2.0, n), tf.linspace(0.1, 0.7, 7))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int32),
                              tf.TensorSpec([None, 2], tf.int32)])
def segment_reductions(x, ids, rows):
    # Sorted and unsorted segment maxima, minima, products and means; a segment no id
    # names gets TensorFlow's fill (the dtype's lowest or highest, 1, 0).
    return (tf.math.unsorted_segment_max(x, ids, num_segments=4),
            tf.math.unsorted_segment_min(rows, ids, 4), tf.math.unsorted_segment_prod(x, ids, 4),
            tf.math.segment_mean(x, tf.sort(ids)), tf.math.segment_max(rows, tf.sort(ids)),
            tf.math.segment_min(x, tf.sort(ids)), tf.math.segment_prod(rows, tf.sort(ids)))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None, 1], tf.int32),
                              tf.TensorSpec([None], tf.float32)])
def scatters(x, at, values):
    # tensor_scatter_nd_update (a position named twice takes the last update), _add
    # (summed), scatter_nd (into zeros), of elements and of rows; an index out of range is
    # TensorFlow's error.
    m = tf.reshape(tf.range(6.0), [3, 2])
    return (tf.tensor_scatter_nd_update(x, at, values), tf.tensor_scatter_nd_add(x, at, values),
            tf.scatter_nd(at, values, tf.shape(x)),
            tf.tensor_scatter_nd_update(m, [[2], [0]], [[10.0, 11.0], [12.0, 13.0]]),
            tf.tensor_scatter_nd_update(m, [[1, 1], [2, 0], [1, 1]], [7.0, 8.0, 9.0]))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int32)])
def segments_in_order(data, ids):
    # TensorFlow's kernels combine each segment's rows one after another: a sum rounds as
    # that sequence does (1 + 1e8 - 1e8 + 3 is 3), and a maximum or minimum keeps a NaN
    # only while no number follows it. ids and data of different lengths: its error.
    return (tf.math.unsorted_segment_sum(data, ids, 3), tf.math.unsorted_segment_prod(data, ids, 3),
            tf.math.unsorted_segment_max(data, ids, 3), tf.math.unsorted_segment_min(data, ids, 3),
            tf.math.segment_sum(data, tf.sort(ids)), tf.math.segment_mean(data, tf.sort(ids)))


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([None], tf.int64)])
def segment_rows_in_order(data, ids):
    # The same with rows of two (a slice combined at a time) and int64 ids.
    return (tf.math.unsorted_segment_sum(data, ids, 2), tf.math.unsorted_segment_max(data, ids, 2),
            tf.math.segment_min(data, tf.sort(ids)))


@tf.function
def segments_of_matrix_ids(data, ids):
    # Segment ids of rank 2 (data.shape starts with ids.shape): TensorFlow reduces over
    # both of their dimensions; the mean's count broadcasts over data's last one.
    return (tf.math.unsorted_segment_sum(data, ids, 3), tf.math.unsorted_segment_max(data, ids, 3),
            tf.math.unsorted_segment_mean(data, ids, 3))


@tf.function(input_signature=[tf.TensorSpec([None, None, None], tf.float32),
                              tf.TensorSpec([None, None], tf.int64)])
def segments_of_matrix_ids_dynamic(data, ids):
    # The same, sizes known only when it runs (a mismatch is TensorFlow's run-time error).
    return tf.math.unsorted_segment_sum(data, ids, 3), tf.math.unsorted_segment_prod(data, ids, 3)


@tf.function(input_signature=[tf.TensorSpec([None], tf.bool), tf.TensorSpec([None], tf.int32)])
def segment_sum_of_bools(flags, ids):
    # TensorFlow has no segment sum of bools (a TypeError while tracing): agc refuses.
    return tf.math.unsorted_segment_sum(flags, ids, 2)


@tf.function
def scatter_adds_in_order(t, indices, updates):
    # TensorFlow's kernel applies the updates one after another: 1 + 1e8 - 1e8 is 0.
    return tf.tensor_scatter_nd_add(t, indices, updates), tf.tensor_scatter_nd_update(t, indices, updates)


@tf.function
def scatter_max_min_sub(t, indices, updates):
    # tensor_scatter_nd_max and _min keep what is there against a NaN update (std::max of
    # the two, in that order), unlike the segment maxima; _sub subtracts in order.
    return (tf.tensor_scatter_nd_max(t, indices, updates), tf.tensor_scatter_nd_min(t, indices, updates),
            tf.tensor_scatter_nd_sub(t, indices, updates))


@tf.function
def unsorted_segment_means(data, ids):
    # The sum over each segment's count (at least 1), and over its square root.
    return (tf.math.unsorted_segment_mean(data, ids, 4), tf.math.unsorted_segment_sqrt_n(data, ids, 4),
            tf.math.unsorted_segment_mean(tf.stack([data, -data], axis=1), ids, 4))


@tf.function
def unsorted_segment_mean_of_ints(data, ids):
    # Integer data: math_ops.py divides with `/`, a float64 result.
    return tf.math.unsorted_segment_mean(data, ids, 3)


@tf.function
def histograms(values):
    # The guide's histogram_fixed_width: values below the range count in the first bin,
    # above it in the last; the bin of each value (histogram_ops.py's arithmetic).
    return (tf.histogram_fixed_width(values, [0.0, 5.0], nbins=5),
            tf.histogram_fixed_width(values, [-1.0, 1.0], nbins=3, dtype=tf.int64),
            tf.histogram_fixed_width_bins(values, [0.0, 5.0], nbins=5))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([2], tf.float32),
                              tf.TensorSpec([], tf.int32)])
def histogram_of_tensors(values, value_range, nbins):
    # A range and a bin count known only when it runs; a bad one is TensorFlow's error.
    return tf.histogram_fixed_width(values, value_range, nbins), tf.histogram_fixed_width(tf.cast(values, tf.int32), [0, 3], 3)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def histogram_bins_of_nan(values):
    # histogram_fixed_width_bins casts a NaN's bin to int32 (TensorFlow's cast: -2**31).
    return tf.histogram_fixed_width_bins(values, [0.0, 3.0], 3)


@tf.function
def confusion(labels, predictions):
    # tf.math.confusion_matrix with its class count given, found, and weighted.
    return (tf.math.confusion_matrix(labels, predictions, num_classes=4),
            tf.math.confusion_matrix(labels, predictions),
            tf.math.confusion_matrix(labels, predictions, num_classes=4, weights=[0.5] * 6, dtype=tf.float32))


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
def kmeans(points, steps):
    # Lloyd's k-means as users write it: a staged loop assigning each point to its nearest
    # centroid and moving each centroid to the mean of its points.
    centroids = points[:3]
    for _ in tf.range(steps):
        distances = tf.reduce_sum(tf.square(points[:, None, :] - centroids[None, :, :]), axis=-1)
        nearest = tf.argmin(distances, axis=1, output_type=tf.int32)
        counts = tf.math.unsorted_segment_sum(tf.ones_like(nearest), nearest, 3)
        means = tf.math.unsorted_segment_mean(points, nearest, 3)
        centroids = tf.where(counts[:, None] > 0, means, centroids)
    return centroids, nearest


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def quantile_bins(x):
    # Equal-count bins: the sorted values' quartiles as edges, each value's bin, and how
    # many fall in each (a histogram of the bins too).
    s = tf.sort(x)
    n = tf.size(x)
    edges = tf.gather(s, [n // 4, n // 2, (3 * n) // 4])
    bins = tf.searchsorted(edges, x, side="right")
    return edges, bins, tf.math.bincount(bins, minlength=4), tf.histogram_fixed_width(x, [s[0], s[n - 1] + 1.0], nbins=4)


@tf.function
def api_page_examples():
    # The examples of TensorFlow's API pages for these functions, as written there.
    hist = tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    c = tf.constant([[1, 2, 3, 4], [5, 6, 7, 8], [4, 3, 2, 1]])
    seg = tf.math.unsorted_segment_sum(c, tf.constant([0, 1, 0]), num_segments=2)
    found = tf.searchsorted([[0, 3, 9, 9, 10], [1, 2, 3, 4, 5]], [[2, 4, 9], [0, 2, 6]])
    cm = tf.math.confusion_matrix([1, 2, 4], [2, 2, 4])
    smax = tf.tensor_scatter_nd_max([0, 0, 0, 0, 0, 0, 0, 0], [[1], [4], [5]], [1, -1, 1])
    smin = tf.tensor_scatter_nd_min([0, 0, 0, 0, 0, 0, 0, 0], [[1], [4], [5]], [1, -1, 1])
    ssub = tf.tensor_scatter_nd_sub([1, 2, 3, 4, 5, 6, 7, 8], [[4], [3], [1], [7]], [9, 10, 11, 12])
    mean = tf.math.unsorted_segment_mean(tf.constant([[1.0, 2, 3, 4], [5, 6, 7, 8], [4, 3, 2, 1]]), [0, 1, 0], 2)
    sorted_ = tf.sort([1, 10, 26.9, 2.8, 166.32, 62.3])
    order = tf.argsort([1, 10, 26.9, 2.8, 166.32, 62.3])
    uniq = tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8])
    return hist, seg, found, cm, smax, smin, ssub, mean, sorted_, order, uniq.y, uniq.idx


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([2], tf.int32)])
def broadcast_to_shapes(x, shape):
    # tf.broadcast_to a shape given as a list and as a tensor (-0.0 and NaN kept as they
    # are); a shape x does not broadcast to is TensorFlow's error.
    return tf.broadcast_to(x, [2, 3]), tf.broadcast_to(tf.reshape(x, [-1, 1]), shape)


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([], tf.int32)])
def stack_tensor_axis(x, a):
    # A tensor axis: TensorFlow refuses it while tracing (agc stacked along axis 0).
    return tf.stack([x, x], axis=a)


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([], tf.int32)])
def concat_tensor_axis(x, a):
    # A tensor axis, which TensorFlow takes (agc joined along axis 0 whatever its value).
    return tf.concat([x, x], axis=a)


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([], tf.int32)])
def argmax_tensor_axis(x, a):
    return tf.argmax(x, axis=a)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def argmax_of_empty(x):
    # An empty axis has no position to give: TensorFlow's error when called (agc gave 0).
    return tf.argmax(x), tf.argmin(x)


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def keepdims_tensor(x):
    # keepdims must be a Python bool: TensorFlow calls bool() on it, which a traced tensor
    # refuses (agc took it as False).
    return tf.reduce_sum(x, axis=1, keepdims=tf.constant(True))


@tf.function
def matmul_adjoints(a, b):
    # adjoint_a/adjoint_b are transpose_a/transpose_b for real dtypes (agc ignored them);
    # both given, or a flag that is not a bool, are TensorFlow's errors.
    return tf.matmul(a, b, adjoint_b=True), tf.linalg.matmul(a, b, adjoint_a=True)


@tf.function
def matmul_int_flag(a, b):
    return tf.matmul(a, b, transpose_b=1)


@tf.function
def matmul_transpose_and_adjoint(a, b):
    return tf.matmul(a, b, transpose_a=True, adjoint_a=True)


@tf.function
def convert_with_hint(x):
    # dtype_hint: 1 takes float32; 1.5 cannot be int32 and stays float32 (agc ignored it).
    return tf.convert_to_tensor(1, dtype_hint=tf.float32) + x, tf.convert_to_tensor(1.5, dtype_hint=tf.int32)


@tf.function
def l2_normalize_dim(x):
    # dim: the deprecated name of axis (agc refused it).
    return tf.math.l2_normalize(x, dim=1)


@tf.function
def eye_batch_shape():
    return tf.eye(2, batch_shape=[3])


@tf.function
def transpose_conjugate(x):
    return tf.transpose(tf.complex(x, x), conjugate=True)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.float32)])
def range_mixed_bounds(n, x):
    # Bounds of several dtypes are cast to the highest (int32 < int64 < float32 ...), as
    # math_ops.range does (agc refused them).
    return tf.range(1, n, 0.5), tf.range(n, x)


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def range_int64_start(n):
    # 2**33 makes the range int64 (agc made it int32, wrapping the start to 0). The limit
    # wraps to n in int32 (2**33 + n), so start > limit: TensorFlow's error.
    return tf.range(2**33, 2**33 + n)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def rint_halves(x):
    # Half to even, as tf.round (agc refused tf.math.rint).
    return tf.math.rint(x), tf.math.rint(x * 10.0) / 10.0


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32)])
def truncate_div_mod_int32(a, b):
    # C's division: toward zero, the remainder with the dividend's sign (agc refused
    # tf.truncatediv and tf.truncatemod).
    return tf.truncatediv(a, b), tf.truncatemod(a, b), a // b, a % b


@tf.function(input_signature=[tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.int64)])
def truncate_div_mod_int64(a, b):
    return tf.truncatediv(a, b), tf.truncatemod(a, b)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def truncate_div_mod_float32(a, b):
    return tf.truncatediv(a, b), tf.truncatemod(a, b)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
def truncate_div_mod_float64_by_scalar(a):
    return tf.truncatediv(a, 0.75), tf.truncatemod(a, -0.75)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def python_number_first(a):
    # A Python number first converts to its own dtype: float32 here, y's.
    return tf.truncatemod(7.5, a), tf.maximum(0.0, a), tf.math.floordiv(-7.0, a)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
def python_number_first_other_dtype(a):
    # 7.5 becomes a float32 tensor before TensorFlow looks at a (float64): a TypeError
    # while tracing (agc converted 7.5 to float64).
    return tf.truncatemod(7.5, a)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def python_int_first_float_tensor(a):
    # tf.maximum(0, a): 0 is an int32 tensor, a float32 one: TensorFlow's TypeError.
    return tf.maximum(0, a)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def python_list_first(a):
    # A list first converts by its own elements too: ints, int32.
    return tf.add([1, 2], a)


@tf.function(input_signature=[tf.TensorSpec([None], tf.uint8), tf.TensorSpec([None], tf.int8)])
def truncatediv_small_ints(a, b):
    return tf.truncatediv(a, tf.constant(7, tf.uint8)), tf.truncatediv(b, tf.constant(-3, tf.int8))


@tf.function(input_signature=[tf.TensorSpec([None, None, None], tf.float32)])
def matrix_transpose_batch(m):
    # The last two axes (agc refused tf.linalg.matrix_transpose).
    return tf.linalg.matrix_transpose(m), tf.linalg.matrix_transpose(m[0])


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def matrix_transpose_complex(x):
    return tf.linalg.matrix_transpose(tf.complex(x, -x))


@tf.function(input_signature=[tf.TensorSpec([None], tf.int8)])
def truncatemod_int8(a):
    # TensorFlow's TruncateMod has no int8: refused while tracing.
    return tf.truncatemod(a, a)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def matrix_transpose_vector(v):
    return tf.linalg.matrix_transpose(v)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def slice_rows(m):
    # A window of a matrix: from row 1, two rows, every column; and one column (agc
    # refused tf.slice).
    return tf.slice(m, [1, 0], [2, -1]), tf.slice(m, [0, 1], [-1, 1])


@tf.function(input_signature=[tf.TensorSpec([3, 4], tf.int32)])
def slice_static(m):
    return tf.slice(m, [1, 1], [2, 3]), tf.slice(m, [3, 0], [-1, 2]), tf.slice(m, [0, 0], [3, 4])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def slice_window(x, start):
    # A begin known only when it runs, the size an int: the result's length is static, and
    # a window past either end is TensorFlow's error, not Python's clipped slice.
    w = tf.slice(x, [start], [2])
    return w, tf.reduce_sum(w)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([1], tf.int64),
                              tf.TensorSpec([1], tf.int64)])
def slice_tensor_bounds(x, begin, size):
    return tf.slice(x, begin, size)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def slice_tail(x, n):
    # The last n elements.
    return tf.slice(x, [tf.size(x) - n], [-1])


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.complex64)])
def slice_complex(z):
    return tf.slice(z, [1, 0], [-1, 1])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def slice_negative_begin(x):
    # Slice does not count from the end: an error when it runs.
    return tf.slice(x, [-1], [1])


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def slice_past_end(x):
    return tf.slice(x, [1], [5])


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def slice_begin_past_end(x):
    # With size -1 and a known dimension, TensorFlow refuses while tracing.
    return tf.slice(x, [4], [-1])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def slice_bad_size(x):
    return tf.slice(x, [0], [-2])


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def slice_wrong_length(x):
    return tf.slice(x, [1], [1])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([1], tf.int64)])
def slice_mixed_dtypes(x, begin):
    return tf.slice(x, begin, tf.constant([1], tf.int32))


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def adjoint_real_complex(m):
    # The conjugate transpose of the last two axes (agc refused tf.linalg.adjoint).
    z = tf.complex(m, m * 2.0)
    return tf.linalg.adjoint(m), tf.linalg.adjoint(z), tf.linalg.adjoint(tf.stack([z, -z]))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def saturate_pixels(x):
    # Pixels back to uint8 without wrapping (agc refused tf.saturate_cast): clipped to
    # [0, 255] first, NaN cast as tf.cast casts it.
    return tf.saturate_cast(x * 255.0, tf.uint8), tf.saturate_cast(x * 255.0, tf.int8)


@tf.function
def saturate_casts(x):
    # Every dtype the limits of which TensorFlow computes in x's dtype: float32 to int32
    # clips to 2147483520 (2**31 rounds up in float32: one float below), to uint32 to
    # 4294967040.
    return (tf.saturate_cast(x, tf.int8), tf.saturate_cast(x, tf.uint8),
            tf.saturate_cast(x, tf.int16), tf.saturate_cast(x, tf.uint16),
            tf.saturate_cast(x, tf.int32), tf.saturate_cast(x, tf.uint32),
            tf.saturate_cast(x, tf.bfloat16), tf.saturate_cast(x, tf.float32),
            tf.saturate_cast(x, tf.float64))


@tf.function
def saturate_to_half(x):
    # To float16's [-65504, 65504]. (Not from int32: TensorFlow's NumPy prints an overflow
    # warning computing that limit, which the suite would read as output.)
    return tf.saturate_cast(x, tf.float16)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float16)])
def saturate_half(x):
    # float16 limits: int16's 32767 rounds to 32768 in float16, one float16 below is 32752.
    # (Not to int32: TensorFlow's NumPy prints an overflow warning there, which the suite
    # would read as output.)
    return (tf.saturate_cast(x, tf.int8), tf.saturate_cast(x, tf.uint8),
            tf.saturate_cast(x, tf.int16), tf.saturate_cast(x, tf.uint16),
            tf.saturate_cast(x, tf.uint32), tf.saturate_cast(x, tf.bfloat16),
            tf.saturate_cast(x, tf.float64))


@tf.function
def saturate_casts_wide(x):
    # To int64 and uint64, whose upper limit a float cannot hold below 2**63 and 2**64:
    # TensorFlow clips to 2**63 (2**64) and casts, as agc does.
    return tf.saturate_cast(x, tf.int64), tf.saturate_cast(x, tf.uint64)


@tf.function(input_signature=[tf.TensorSpec([None], tf.complex64)])
def saturate_complex(z):
    # A complex number to a real dtype: its real part, saturated.
    return tf.saturate_cast(z, tf.int8), tf.saturate_cast(z, tf.complex128)


@tf.function(input_signature=[tf.TensorSpec([None], tf.uint32)])
def saturate_uint32(x):
    # TensorFlow has no ClipByValue kernel for uint32: an error when it runs.
    return tf.saturate_cast(x, tf.uint8)


@tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
def saturate_int64_to_int64(x):
    # TensorFlow 2.21 makes the upper limit float(2**63 - 1) = 2**63 an int64: it wraps to
    # -2**63, and every value becomes -2**63. agc refuses, located.
    return tf.saturate_cast(x, tf.int64)


@tf.function(input_signature=[tf.TensorSpec([None], tf.bool)])
def saturate_bool(x):
    return tf.saturate_cast(x, tf.int32)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def polyval_cubic(x):
    # 2x^3 - x + 0.5 by Horner's rule (agc refused tf.math.polyval).
    return tf.math.polyval([2.0, 0.0, -1.0, 0.5], x), tf.math.polyval([], x)


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def sequence_masks(lengths):
    # Padding masks for a batch of sequences (agc refused tf.sequence_mask).
    return (tf.sequence_mask(lengths), tf.sequence_mask(lengths, 5),
            tf.sequence_mask(lengths, 4, dtype=tf.float32))


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int64), tf.TensorSpec([], tf.int64)])
def sequence_mask_tensor_maxlen(lengths, maxlen):
    return tf.sequence_mask(lengths, maxlen)


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([3, 4], tf.float32)])
def tensordot_forms(a, b):
    # A matrix product, an outer product and a full contraction (agc refused tf.tensordot).
    return (tf.tensordot(a, b, axes=1), tf.tensordot(a, b, axes=0),
            tf.tensordot(a, tf.transpose(b)[:2], axes=[[0, 1], [0, 1]]),
            tf.tensordot(a, b, axes=[[1], [0]]), tf.tensordot(b, a, axes=[0, 1]))


@tf.function(input_signature=[tf.TensorSpec([None, 3, None], tf.float32), tf.TensorSpec([None, 3], tf.float32)])
def tensordot_dynamic(a, b):
    return tf.tensordot(a, b, axes=[[1, 0], [1, 0]])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def meshgrids(x, y):
    # A grid of points (agc refused tf.meshgrid).
    gx, gy = tf.meshgrid(x, y)
    ix, iy = tf.meshgrid(x, y, indexing="ij")
    return gx, gy, ix, iy, gx * gx + gy * gy


@tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
def meshgrid_three(x):
    return tf.meshgrid(x, [1, 2, 3], tf.constant([7]))


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
def tensordot_too_many_axes(a):
    return tf.tensordot(a, a, axes=3)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def moving_sums(x, width):
    # Sums of each window of `width` consecutive values, with tf.slice in a staged loop.
    n = tf.size(x) - width + 1
    sums = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        sums = sums.write(i, tf.reduce_sum(tf.slice(x, [i], [width])))
    return sums.stack()


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None, None], tf.float32)])
def masked_means(lengths, values):
    # The mean of each row's first lengths[i] values.
    mask = tf.sequence_mask(lengths, tf.shape(values)[1], dtype=tf.float32)
    total = tf.reduce_sum(values * mask, axis=1)
    count = tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)
    return total / count


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def newton_polyval(x):
    # Newton's method on p(t) = t^3 - 2t - 5, from each x, 20 steps.
    t = x
    for _ in tf.range(20):
        p = tf.math.polyval([1.0, 0.0, -2.0, -5.0], t)
        dp = tf.math.polyval([3.0, 0.0, -2.0], t)
        t = t - p / dp
    return t


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def grid_min(xs, ys):
    # The smallest value of (x - 1)^2 + (y + 2)^2 over a grid, and where it is.
    gx, gy = tf.meshgrid(xs, ys)
    f = tf.square(gx - 1.0) + tf.square(gy + 2.0)
    flat = tf.reshape(f, [-1])
    k = tf.argmin(flat)
    return tf.reduce_min(f), tf.gather(tf.reshape(gx, [-1]), k), tf.gather(tf.reshape(gy, [-1]), k)


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
def quantize(x):
    # Scale each row to [-127, 127] by its largest magnitude, then to int8.
    scale = tf.reduce_max(tf.abs(x), axis=1, keepdims=True) / 127.0
    q = tf.saturate_cast(tf.round(x / tf.maximum(scale, 1e-12)), tf.int8)
    return q, tf.tensordot(tf.cast(q, tf.float32), tf.ones([4]), axes=1)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None, 2], tf.float32)])
def clip_updates(a, b):
    # Updates scaled together so that their global norm is at most 5 (agc refused
    # tf.clip_by_global_norm and tf.linalg.global_norm).
    (ca, cb), norm = tf.clip_by_global_norm([a, b], 5.0)
    return ca, cb, norm, tf.linalg.global_norm([ca, cb])


@tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
def clip_with_none(a):
    clipped, norm = tf.clip_by_global_norm((a, None), tf.constant(1.0, tf.float64), use_norm=tf.constant(2.0, tf.float64))
    return clipped[0], norm


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float64)])
def global_norm_mixed(a, b):
    return tf.linalg.global_norm([a, b])


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def unique_ids(ids):
    # The distinct ids in the order they first appear, and where each element went
    # (agc refused tf.unique).
    y, idx = tf.unique(ids)
    out = tf.unique_with_counts(ids, out_idx=tf.int64)
    return y, idx, out.y, out.idx, out.count


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def unique_floats(x):
    u = tf.unique(x)
    return u.y, u.idx


@tf.function(input_signature=[tf.TensorSpec([None], tf.bool)])
def unique_bools(x):
    return tf.unique(x)


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int32)])
def unique_matrix(x):
    return tf.unique(x)


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32),
                              tf.TensorSpec([], tf.int32)])
def argsort_of_segments(data, ids, n):
    # The order of segment minimums whose count is a value: agc crashed sizing tf.argsort's
    # scratch positions (an index tensor) against it.
    return tf.argsort(tf.math.unsorted_segment_min(data, ids, n))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def bin_edges(edges, x):
    # Which bin each value falls in (agc refused tf.searchsorted).
    return (tf.searchsorted(edges, x), tf.searchsorted(edges, x, side="right"),
            tf.searchsorted(edges, x, out_type=tf.int64))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.int32), tf.TensorSpec([None, 2], tf.int32)])
def rows_searchsorted(seq, values):
    return tf.searchsorted(seq, values, side="right")


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.int32), tf.TensorSpec([3, 2], tf.int32)])
def rows_mismatch(seq, values):
    return tf.searchsorted(seq, values)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float64)])
def searchsorted_dtypes(seq, values):
    return tf.searchsorted(seq, values)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def searchsorted_unsorted(seq, x):
    # A sequence that is not sorted, or holds a NaN: TensorFlow's binary search gives the
    # position its probes lead to (std::lower_bound's and upper_bound's), agc's the same.
    return tf.searchsorted(seq, x), tf.searchsorted(seq, x, side="right")


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int64), tf.TensorSpec([None, None], tf.int64)])
def searchsorted_rows_of_ties(seq, x):
    # Rows with runs of equal values, values before, among and after them.
    return tf.searchsorted(seq, x, out_type=tf.int64), tf.searchsorted(seq, x, side="right")
