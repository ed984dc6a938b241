# RUN: %agc --emit=analysis %s | FileCheck %s
# tf.cond squeezes its test: shape (None,) passes tracing (TensorFlow checks at run time
# that it holds one element), like shape (1,); shape (3,) does not (tracing-if-test-not-scalar.py).
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def f(x):
    if x > 0.0:
        x = -x
    return x
# CHECK: if @{{.*}}:8:5: staged: the test is a bool tensor
