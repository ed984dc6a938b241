# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# Python iterates a set of str in an order that changes with the hash seed: agc refuses
# what depends on it, and a tensor cannot be a set's element.
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    names = {"b", "a"}
    return [x for _ in names]

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def g(x):
    print({10, 20})
    return x

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def h(x):
    return {x}
# CHECK:      {{.*}}set-order-unknown.py:[[@LINE-10]]:24: error: this depends on the order Python iterates a Python set in, which follows the hashes of its elements; agc knows that order only for ints from 0 to 7 (for str it changes with every run of Python)
# CHECK-NEXT:     return [x for _ in names]
# CHECK-NEXT:                        ^~~~~
# CHECK-NEXT: {{.*}}set-order-unknown.py:[[@LINE-13]]:24: note: iterate over sorted(...) of the set for an order that is the same everywhere
# CHECK-NEXT:     return [x for _ in names]
# CHECK-NEXT:                        ^~~~~
# CHECK-NEXT: {{.*}}set-order-unknown.py:[[@LINE-12]]:5: error: this depends on the order Python iterates a Python set in, which follows the hashes of its elements; agc knows that order only for ints from 0 to 7 (for str it changes with every run of Python)
# CHECK-NEXT:     print({10, 20})
# CHECK-NEXT:     ^~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}set-order-unknown.py:[[@LINE-15]]:5: note: iterate over sorted(...) of the set for an order that is the same everywhere
# CHECK-NEXT:     print({10, 20})
# CHECK-NEXT:     ^~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}set-order-unknown.py:[[@LINE-13]]:12: error: unhashable type: a float32 tensor of shape () cannot be an element of a set
# CHECK-NEXT:     return {x}
# CHECK-NEXT:            ^~~
# CHECK-NEXT: {{.*}}set-order-unknown.py:[[@LINE-16]]:12: note: a tensor is not hashable in TensorFlow 2; use tensor.ref(), or a Python value
# CHECK-NEXT:     return {x}
# CHECK-NEXT:            ^~~
# CHECK-NOT:  {{.*}}error:{{.*}}
