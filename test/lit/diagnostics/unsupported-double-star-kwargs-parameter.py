# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# Refused only when traced: the construct sits in a traced @tf.function.
import tensorflow as tf


@tf.function
def traced():
    def f(**kwargs):
        pass
    f()
# CHECK:      {{.*}}unsupported-double-star-kwargs-parameter.py:[[@LINE-1]]:5: error: 'f' takes '**kwargs', a dict, and agc does not support dicts in traced code yet
# CHECK-NEXT:     f()
# CHECK-NEXT:     ^~~
# CHECK-NEXT: {{.*}}unsupported-double-star-kwargs-parameter.py:[[@LINE-6]]:11: note: the parameter is declared here
# CHECK-NEXT:     def f(**kwargs):
# CHECK-NEXT:           ^~~~~~~~
