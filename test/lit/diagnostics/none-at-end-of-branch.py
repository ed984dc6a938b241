# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# TensorFlow refuses None out of a staged if ("'out' is None at the end of the main
# branch"), alone or inside a tuple; agc once let a plain None through.
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    if x > 0:
        out = None
    else:
        out = None
    return x, out is None

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def g(x):
    if x > 0:
        r = (x, 1.0)
    else:
        r = (x, None)
    return r[0]

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def h(x):
    if x > 0:
        return x, None
    return -x, None
# CHECK:      {{.*}}none-at-end-of-branch.py:[[@LINE-19]]:5: error: 'out' is None at the end of the main branch
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}none-at-end-of-branch.py:[[@LINE-21]]:9: note: 'out' is set to None here
# CHECK-NEXT:         out = None
# CHECK-NEXT:         ^~~
# CHECK-NEXT: {{.*}}none-at-end-of-branch.py:[[@LINE-25]]:5: note: a staged if (tf.cond) can only produce tensors, and 'out' is used after it; give it a tensor value in both branches (tf.zeros, or a flag), or stop using it after the if
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}none-at-end-of-branch.py:[[@LINE-20]]:5: error: 'r' is None at the end of the else branch
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}none-at-end-of-branch.py:[[@LINE-23]]:5: note: a staged if (tf.cond) can only produce tensors, and 'r' is used after it; give it a tensor value in both branches (tf.zeros, or a flag), or stop using it after the if
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}none-at-end-of-branch.py:[[@LINE-17]]:9: error: this return gives None (at [1] of a Python tuple) under a staged condition; tf.cond can only produce tensors (or tuples, lists and dicts of them)
# CHECK-NEXT:         return x, None
# CHECK-NEXT:         ^~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}none-at-end-of-branch.py:[[@LINE-20]]:9: note: return a tensor there, or move the return out of the staged condition
# CHECK-NEXT:         return x, None
# CHECK-NEXT:         ^~~~~~~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
