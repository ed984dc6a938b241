# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def f(x):
    if x > 0:
        x = x + 1
    else:
        return x
# CHECK:      {{.*}}tracing-return-falls-off-end-main-branch.py:[[@LINE-1]]:9: error: 'f' returns a value here, under a staged condition, but can also reach its end and return None
# CHECK-NEXT:         return x
# CHECK-NEXT:         ^~~~~~~~
# CHECK-NEXT: {{.*}}tracing-return-falls-off-end-main-branch.py:[[@LINE-7]]:5: note: the function can end here without a return; make every path return a value (a staged if is tf.cond, whose branches must both produce it)
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NOT:  {{.*}}error:{{.*}}
