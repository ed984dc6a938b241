# RUN: %expect_exit 1 %agc --emit=analysis %s 2>&1 | FileCheck %s --match-full-lines
# Python ints are evaluated in 64 bits while compiling: a result outside that range is a
# located refusal, never a wrapped value (2**64 + 5 once gave 5), and never a crash
# (INT64_MIN // -1 once raised SIGFPE in the compiler). Each function fails on its own.
import tensorflow as tf


@tf.function
def wraps():
    return tf.constant(2 ** 64 + 5)
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: the Python int result of 2 ** 64 does not fit in 64 bits, the range in which agc evaluates Python ints while compiling
# CHECK-NEXT:     return tf.constant(2 ** 64 + 5)
# CHECK-NEXT:                        ^~~~~~~


@tf.function
def floordiv_min():
    return tf.constant((-9223372036854775807 - 1) // -1)
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: the Python int result of -9223372036854775808 // -1 does not fit in 64 bits{{.*}}


@tf.function
def product():
    return tf.constant(4611686018427387904 * 2)
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: the Python int result of 4611686018427387904 * 2 does not fit in 64 bits{{.*}}


@tf.function
def shift():
    return tf.constant(3 << 62)
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: the Python int result of 3 << 62 does not fit in 64 bits{{.*}}


@tf.function
def negate():
    m = -9223372036854775807 - 1
    return tf.constant(-m)
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: the Python int result of -(-9223372036854775808) does not fit in 64 bits{{.*}}


@tf.function
def int_of_inf():
    return tf.constant(int(1e300))
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: the Python int result of int(1e+300) does not fit in 64 bits{{.*}}


@tf.function
def int_of_nan():
    return tf.constant(int(float("nan")))
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: cannot convert float NaN to integer


@tf.function
def huge_power_is_quick():
    # 1 ** 10**14 once looped 10**14 times; squaring takes 47 steps.
    return tf.constant(1 ** 10 ** 14 + 3 ** 40)
# CHECK:      {{.*}}.py:[[@LINE-1]]:40: error: the Python int result of 3 ** 40 does not fit in 64 bits{{.*}}


@tf.function
def negative_shift():
    return tf.constant(1 << -1)
# CHECK:      {{.*}}.py:[[@LINE-1]]:24: error: negative shift count


@tf.function
def repeat_huge():
    return len([0] * 2 ** 40)
# CHECK:      {{.*}}.py:[[@LINE-1]]:16: error: repeating a Python list 1099511627776 times makes more than 16777216 elements (agc's limit)
# CHECK-NOT:  {{.*}}error:{{.*}}
