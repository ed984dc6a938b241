# tf.saturate_cast from int64 to int64: TensorFlow 2.21 makes its upper limit,
# float(2**63 - 1) = 2**63, an int64, which wraps, and every value becomes -2**63. agc
# refuses, located, saying why and what to use; int64 to int32 is saturated as TensorFlow
# does it, and a slice past the end of a known dimension with size -1 is refused as
# TensorFlow refuses it while tracing.
# RUN: %expect_exit 1 %agc compile %s -o %t.o 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int64)])
def f(x):
    ok = tf.saturate_cast(x, tf.int32)
    return ok, tf.saturate_cast(x, tf.int64)
# CHECK:      {{.*}}slice-and-saturate-cast.py:[[@LINE-1]]:16: error: tf.saturate_cast(): from int64 to int64 is refused: TensorFlow 2.21 makes its upper limit, min(float(int64.max), float(int64.max)), an int64 number, which int64 cannot hold, so that its results are not saturated values (use tf.cast, or tf.clip_by_value then tf.cast)
# CHECK-NEXT:     return ok, tf.saturate_cast(x, tf.int64)
# CHECK-NEXT:                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~


@tf.function(input_signature=[tf.TensorSpec(shape=[3], dtype=tf.float32)])
def g(x):
    return tf.slice(x, [4], [-1])
# CHECK:      {{.*}}slice-and-saturate-cast.py:[[@LINE-1]]:12: error: tf.slice(): begin[0] is 4, past the end of dimension 0 (size 3)
