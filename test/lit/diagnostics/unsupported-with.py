# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# `with` enters TensorFlow's scope managers; any other context manager is refused when
# traced, saying which ones agc supports.
import tensorflow as tf


@tf.function
def traced():
    with tf.constant(1) as f:
        pass
# CHECK:      {{.*}}unsupported-with.py:[[@LINE-2]]:10: error: agc cannot enter an int32 tensor of shape () as a context manager: it supports tf.name_scope, tf.device, tf.control_dependencies and Python classes with __enter__ and __exit__
# CHECK-NEXT:     with tf.constant(1) as f:
# CHECK-NEXT:          ^~~~~~~~~~~~~~
