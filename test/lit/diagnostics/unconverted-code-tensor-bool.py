# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# AutoGraph does not convert a function decorated with autograph=False, a constructor, or
# __enter__: a tensor used as a Python bool there is TensorFlow's
# OperatorNotAllowedInGraphError. agc once staged them and returned a value.
import tensorflow as tf

@tf.function(autograph=False, input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def off(x):
    if x > 0:
        x = x * 2
    return x

@tf.function(autograph=False, input_signature=[tf.TensorSpec(shape=[3], dtype=tf.float32)])
def off_for(xs):
    total = 0.0
    for v in xs:
        total += v
    return total

class Clipped:
    def __init__(self, x):
        self.value = x if x > 0 else -x

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def constructed(x):
    return Clipped(x).value

def helper(x):
    return x > 0 and x < 1

@tf.function(autograph=False, input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def calls_helper(x):
    return helper(x)
# CHECK:      {{.*}}unconverted-code-tensor-bool.py:[[@LINE-25]]:8: error: using a tensor as a Python bool is not allowed here: AutoGraph does not convert 'off', whose @tf.function says autograph=False, so the test of this if needs the tensor's value, which exists only at run time
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:        ^~~~~
# CHECK-NEXT: {{.*}}unconverted-code-tensor-bool.py:[[@LINE-29]]:5: note: TensorFlow raises OperatorNotAllowedInGraphError; move the code into a function that AutoGraph converts (a @tf.function, or one it calls), or use tf.cond / tf.while_loop
# CHECK-NEXT: def off(x):
# CHECK-NEXT:     ^~~
# CHECK-NEXT: {{.*}}unconverted-code-tensor-bool.py:[[@LINE-24]]:14: error: iterating over a tensor is not allowed here: AutoGraph does not convert 'off_for', whose @tf.function says autograph=False, so this for loop is Python's, over a symbolic tensor
# CHECK-NEXT:     for v in xs:
# CHECK-NEXT:              ^~
# CHECK-NEXT: {{.*}}unconverted-code-tensor-bool.py:[[@LINE-29]]:5: note: TensorFlow raises OperatorNotAllowedInGraphError; move the code into a function that AutoGraph converts (a @tf.function, or one it calls), or use tf.cond / tf.while_loop
# CHECK-NEXT: def off_for(xs):
# CHECK-NEXT:     ^~~~~~~
# CHECK-NEXT: {{.*}}unconverted-code-tensor-bool.py:[[@LINE-24]]:27: error: using a tensor as a Python bool is not allowed here: AutoGraph does not convert a constructor (Clipped.__init__), which Python calls, so this conditional expression needs the tensor's value, which exists only at run time
# CHECK-NEXT:         self.value = x if x > 0 else -x
# CHECK-NEXT:                           ^~~~~
# CHECK-NEXT: {{.*}}unconverted-code-tensor-bool.py:[[@LINE-28]]:9: note: TensorFlow raises OperatorNotAllowedInGraphError; move the code into a function that AutoGraph converts (a @tf.function, or one it calls), or use tf.cond / tf.while_loop
# CHECK-NEXT:     def __init__(self, x):
# CHECK-NEXT:         ^~~~~~~~
# CHECK-NEXT: {{.*}}unconverted-code-tensor-bool.py:[[@LINE-23]]:12: error: using a tensor as a Python bool is not allowed here: AutoGraph does not convert 'calls_helper', whose @tf.function says autograph=False, nor the functions it calls, so this 'and' needs the tensor's value, which exists only at run time
# CHECK-NEXT:     return x > 0 and x < 1
# CHECK-NEXT:            ^~~~~
# CHECK-NEXT: {{.*}}unconverted-code-tensor-bool.py:[[@LINE-27]]:5: note: TensorFlow raises OperatorNotAllowedInGraphError; move the code into a function that AutoGraph converts (a @tf.function, or one it calls), or use tf.cond / tf.while_loop
# CHECK-NEXT: def helper(x):
# CHECK-NEXT:     ^~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
