# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# `**` in a call unpacks a dict of str keys, as Python requires.
import tensorflow as tf


@tf.function
def traced():
    tf.abs(**[1])
# CHECK:      {{.*}}double-star-call-not-a-dict.py:[[@LINE-1]]:12: error: argument after ** must be a dict, not a Python list
# CHECK-NEXT:     tf.abs(**[1])
# CHECK-NEXT:            ^~~~~


@tf.function
def int_keys():
    tf.abs(**{1: 2})
# CHECK:      {{.*}}double-star-call-not-a-dict.py:[[@LINE-1]]:12: error: keywords must be strings, not the Python int 1
