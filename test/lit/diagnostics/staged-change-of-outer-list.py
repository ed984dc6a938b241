# RUN: %expect_exit 1 %agc --emit=ag %s 2>&1 | FileCheck %s --match-full-lines
# RUN: %expect_exit 1 %agc --emit=ag --function after_staged_return_in_helper %s 2>&1 | FileCheck %s --match-full-lines --check-prefix=GUARD
# A list or dict made before a staged if or loop cannot change inside it: TensorFlow
# traces the block once (InaccessibleTensorError where a tensor from inside is used
# outside). agc used to drop the change and return a wrong answer.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def in_staged_if(x):
    parts = [x]
    if x > 0:
        parts.append(x * 2)
    return tf.stack(parts)
# CHECK:      {{.*}}staged-change-of-outer-list.py:[[@LINE-2]]:9: error: this changes a Python list made before the staged if (tf.cond) it is in
# CHECK-NEXT:         parts.append(x * 2)
# CHECK-NEXT:         ^~~~~~~~~~~~~~~~~~~
# CHECK-NEXT: {{.*}}staged-change-of-outer-list.py:[[@LINE-6]]:5: note: the staged if (tf.cond): TensorFlow traces its code once, whatever happens at run time, so the change would be made once whether or not the code runs, and a tensor made inside it cannot be used outside it (InaccessibleTensorError)
# CHECK-NEXT:     if x > 0:
# CHECK-NEXT:     ^~~~~~~~~
# CHECK-NEXT: {{.*}}staged-change-of-outer-list.py:[[@LINE-8]]:9: note: compute the values inside, and change the list after it


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def in_staged_loop(xs):
    outputs = []
    for x in xs:
        outputs.append(x * 2)
    return tf.stack(outputs)
# CHECK:      {{.*}}staged-change-of-outer-list.py:[[@LINE-2]]:9: error: this changes a Python list made before the staged loop (tf.while_loop) it is in
# CHECK:      {{.*}}staged-change-of-outer-list.py:[[@LINE-3]]:9: note: to collect tensors in a staged loop, use a tf.TensorArray (ta = ta.write(i, x) in the loop, ta.stack() after it)


def record(log, key, value):
    log[key] = value


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def helper_in_staged_branch(x):
    log = {}
    if x > 0:
        record(log, "positive", x)
    return x
# CHECK:      {{.*}}staged-change-of-outer-list.py:[[@LINE-9]]:5: error: this changes a Python dict made before the staged if (tf.cond) it is in
# CHECK-NEXT:     log[key] = value
# CHECK:      {{.*}}staged-change-of-outer-list.py:[[@LINE-5]]:5: note: the staged if (tf.cond): {{.*}}


def append_unless_positive(acc, x):
    if x > 0:
        return x
    acc.append(x * 3)
    return x


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def after_staged_return_in_helper(x):
    acc = [x]
    y = append_unless_positive(acc, x)
    return y + tf.reduce_sum(tf.stack(acc))
# GUARD:      {{.*}}staged-change-of-outer-list.py:[[@LINE-9]]:5: error: this changes a Python list made before the staged if (tf.cond) that AutoGraph puts around the code after a staged exit it is in


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def made_inside_is_fine(x):
    if x > 0:
        parts = [x]
        parts.append(x * 2)
        y = tf.reduce_sum(tf.stack(parts))
    else:
        y = x
    return y
# Only the first three are refused (the helper's change is found when code is generated).
# CHECK:      agc: error: {{.*}}staged-change-of-outer-list.py: 3 of 5 @tf.functions refused ('in_staged_if', 'in_staged_loop', 'helper_in_staged_branch'); nothing written. Compile the others alone with --function NAME
