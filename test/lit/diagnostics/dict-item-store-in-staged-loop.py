# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# A dict made before a staged loop and changed in it: refused, with the rebinding that the
# loop does carry (conformance composites.rebuilt_dict_in_loop).
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(n):
    d = {"a": tf.constant(0)}
    for i in tf.range(n):
        d["a"] = d["a"] + i
    return d["a"]
# CHECK:      {{.*}}dict-item-store-in-staged-loop.py:[[@LINE-2]]:9: error: this sets an item of a Python dict made before the staged loop (tf.while_loop) it is in, which agc does not carry
# CHECK-NEXT:         d["a"] = d["a"] + i
# CHECK-NEXT:         ^~~~~~
# CHECK-NEXT: {{.*}}dict-item-store-in-staged-loop.py:[[@LINE-6]]:5: note: the staged loop (tf.while_loop): TensorFlow carries an item or attribute set in it as a variable of its own (AutoGraph's compound symbols); agc carries names, and the tuples, lists and dicts bound to them
# CHECK-NEXT:     for i in tf.range(n):
# CHECK-NEXT:     ^~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}dict-item-store-in-staged-loop.py:[[@LINE-8]]:9: note: bind the name to a new dict instead (d = {**d, 'key': value}): a staged if or loop carries a dict's values one by one
# CHECK-NEXT:         d["a"] = d["a"] + i
# CHECK-NEXT:         ^~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
