"""NumPy while tracing: arrays made with np.array, np.zeros, np.ones, np.full, np.arange
and np.linspace become constants where a TensorFlow op takes them (NumPy's dtype, or the
dtype of the tensor beside them); NumPy dtypes name TensorFlow dtypes; np.* math runs on
Python numbers."""
import numpy as np
import tensorflow as tf

KERNEL = np.array([[1.0, -1.0], [0.5, 2.0]])
BIAS = np.zeros(2, dtype=np.float32)


@tf.function
def dense_with_numpy_weights(x):
    return tf.matmul(x, KERNEL) + BIAS


@tf.function
def array_beside_tensor(x):
    return x + np.array([1.0, 2.0]), x * np.array([2, 3])


@tf.function
def constants_keep_numpy_dtype():
    return (tf.constant(np.arange(4)), tf.constant(np.linspace(0.0, 1.0, 5)),
            tf.reduce_sum(np.ones((2, 3)), axis=0), tf.constant(np.full((2, 2), 7)))


@tf.function
def constant_with_dtype(x):
    return x + tf.constant(np.zeros(3), dtype=tf.float32)


@tf.function
def numpy_dtype_names(x):
    return tf.cast(x, np.float64), tf.zeros([2], dtype=np.int32), tf.ones_like(x, dtype=np.int64)


@tf.function
def float_array_into_int_tensor(x):
    return x + np.array([1.5, 2.5])


@tf.function
def array_shape_and_len(x):
    w = np.ones((3, 4), dtype=np.float32)
    return tf.reshape(x, w.shape), len(w), w.ndim, w.size


@tf.function
def arange_steps(x):
    return x + tf.constant(np.arange(1.0, 2.0, 0.25), dtype=tf.float32)


@tf.function
def linspace_without_endpoint():
    return tf.constant(np.linspace(0, 1, 4, endpoint=False))


@tf.function
def array_returned():
    return np.array([[1, 2], [3, 4]])


@tf.function
def concat_array_and_tensor(x):
    return tf.concat([x, np.zeros(2)], axis=0)


@tf.function
def numpy_math_on_python_numbers(x):
    return x * np.sqrt(2.0) + np.pi + np.exp(1.0)


@tf.function
def numpy_arithmetic_on_arrays(x):
    return x * (np.arange(3) * 2)


@tf.function
def arrays_in_structures(x):
    return {"w": np.ones(2), "pair": (np.arange(2), x)}, tf.stack([x, np.zeros(2)])


@tf.function
def add_n_keeps_array_dtype(x):
    return tf.add_n([x, np.array([1.0, 2.0])])


@tf.function
def empty_arrays(x):
    return tf.constant(np.zeros((0, 3))), x + np.ones((2, 0)).shape[0], tf.concat([x, np.array([])], 0)
