# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# tf.gather's batch_dims (tf_ops.gather_batch_dims_* in the conformance suite): TensorFlow's
# errors where the batch cannot be, located while compiling when the shapes tell.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([2, 3, 4], tf.float32), tf.TensorSpec([2, 3], tf.int32)])
def after_axis(p, i):
    return tf.gather(p, i, axis=1, batch_dims=2)
# CHECK:      {{.*}}gather-batch-dims.py:[[@LINE-1]]:12: error: tf.gather(): batch_dims (2) must be less than or equal to axis (1)
# CHECK-NEXT:     return tf.gather(p, i, axis=1, batch_dims=2)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~


@tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([3, 1], tf.int32)])
def batches_differ(p, i):
    return tf.gather(p, i, batch_dims=1)
# CHECK-NEXT: {{.*}}gather-batch-dims.py:[[@LINE-1]]:12: error: tf.gather(): params.shape[0]: 2 should be equal to indices.shape[0]: 3
# CHECK-NEXT:     return tf.gather(p, i, batch_dims=1)
# CHECK-NEXT:            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
