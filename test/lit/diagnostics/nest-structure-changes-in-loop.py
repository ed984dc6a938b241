# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# A list carried by a staged loop must keep its length (TensorFlow: "'v' does not have the
# same nested structure after one iteration").
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    v = [tf.constant(0)]
    for i in tf.range(n):
        v = [v[0], i]
    return v[0]
# CHECK:      {{.*}}nest-structure-changes-in-loop.py:[[@LINE-3]]:5: error: 'v' does not have the same nested structure after one iteration: 'v' is a list of 1 item, then a list of 2 items
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}nest-structure-changes-in-loop.py:[[@LINE-5]]:9: note: 'v' is assigned here
# CHECK-NEXT:         v = [v[0], i]
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}nest-structure-changes-in-loop.py:[[@LINE-9]]:5: note: a staged loop (tf.while_loop) carries each item of a tuple, list or dict; keep their number (and a dict's keys) from one iteration to the next, or collect values in a tf.TensorArray
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
