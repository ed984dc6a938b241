# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# tf.map_fn's output takes elems' dtype unless fn_output_signature (or the deprecated
# dtype=) says otherwise: fn returning another dtype can never run (TensorFlow fails when
# the graph runs), so agc refuses it while compiling, saying what to write.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def wrong(x):
    return tf.map_fn(lambda t: tf.cast(t, tf.int32), x)
# CHECK:      {{.*}}map-fn-output-dtype.py:[[@LINE-1]]:12: error: tf.map_fn: fn returns an int32 tensor of shape () at 'output', but the dtype of elems says float32; give fn_output_signature
# CHECK-NEXT:     return tf.map_fn(lambda t: tf.cast(t, tf.int32), x)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])
def with_dtype(x):
    return tf.map_fn(lambda t: tf.cast(t, tf.float64) * 2.0, x, dtype=tf.float64)
# CHECK-NOT:  {{.*}}map-fn-output-dtype.py:[[@LINE-1]]{{.*}}error{{.*}}
