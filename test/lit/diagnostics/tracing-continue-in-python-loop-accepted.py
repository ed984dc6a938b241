# RUN: %agc --emit=analysis %s | FileCheck %s
# A continue under a staged if only skips the rest of one pass: TensorFlow guards the rest
# with a flag and the Python loop never reads it, so TensorFlow accepts this, unlike a
# break.
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    s = 0
    for i in range(5):
        if x > i:
            continue
        s += i
    return s
# CHECK: for @{{.*}}:10:5: unrolled: it iterates over a Python range; 5 iterations
# CHECK: if @{{.*}}:11:9: staged: the test is a bool tensor
