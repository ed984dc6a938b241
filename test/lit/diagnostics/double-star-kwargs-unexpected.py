# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# `**kwargs` takes the keyword arguments no parameter names; a repeated one is an error.
import tensorflow as tf


def f(x, **kwargs):
    return x * len(kwargs)


@tf.function
def traced():
    return f(1, x=2)
# CHECK:      {{.*}}double-star-kwargs-unexpected.py:[[@LINE-1]]:12: error: 'f' got multiple values for argument 'x'
# CHECK-NEXT:     return f(1, x=2)
# CHECK-NEXT:            ^~~~~~~~~


@tf.function
def twice():
    options = {"y": 1}
    return f(1, y=2, **options)
# CHECK:      {{.*}}double-star-kwargs-unexpected.py:[[@LINE-1]]:22: error: got multiple values for keyword argument 'y'
