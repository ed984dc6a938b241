# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# The branches of a staged if give dicts of different keys.
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.float32)])
def f(x):
    if x > 0:
        d = {"a": x, "n": 1}
    else:
        d = {"a": -x, "m": 1}
    return d["a"]
# CHECK:      {{.*}}nest-keys-differ-in-if.py:[[@LINE-5]]:5: error: 'd' must have the same nested structure in the main and else branches: 'd' has the key 'n' on one side only
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}nest-keys-differ-in-if.py:[[@LINE-7]]:9: note: 'd' is a Python dict here
# CHECK-NEXT:         d = {"a": x, "n": 1}
# CHECK-NEXT:         ^
# CHECK-NEXT: {{.*}}nest-keys-differ-in-if.py:[[@LINE-8]]:9: note: and a Python dict here
# CHECK-NEXT:         d = {"a": -x, "m": 1}
# CHECK-NEXT:         ^
# CHECK-NOT:  {{.*}}error:{{.*}}
