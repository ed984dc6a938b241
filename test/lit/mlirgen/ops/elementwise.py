# RUN: %agc --emit=ag %s | FileCheck %s
# The IR each elementwise op lowers to (TFOps.def's SCALAR column), one function per form:
# MATH, ARITH (float and integer), INT, CMP and CUSTOM bodies inside one linalg.generic.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def math_forms(x):
    return tf.exp(x), tf.math.log1p(x), tf.round(x), tf.math.atan(x), tf.math.cosh(x), tf.math.erfc(x)
# CHECK-LABEL: func.func @math_forms(
# CHECK:       linalg.generic
# CHECK:         math.exp
# CHECK:       linalg.generic
# CHECK:         math.log1p
# CHECK:       linalg.generic
# CHECK:         math.roundeven
# CHECK:       linalg.generic
# CHECK:         math.atan
# CHECK:       linalg.generic
# CHECK:         math.cosh
# CHECK:       linalg.generic
# CHECK:         math.erfc


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.int32)])
def arith_forms(x, a):
    return x + x, a + a, tf.maximum(x, x), tf.maximum(a, a), a & a, tf.bitwise.right_shift(a, a)
# CHECK-LABEL: func.func @arith_forms(
# CHECK:         arith.addf
# CHECK:         arith.addi
# CHECK:         arith.maximumf
# CHECK:         arith.maxsi
# CHECK:         arith.andi
# The shift amount is clamped to [0, 31], as TensorFlow's kernel clamps it.
# CHECK:         arith.maxsi
# CHECK:         arith.minui
# CHECK:         arith.shrsi


@tf.function(input_signature=[tf.TensorSpec([3], tf.uint8), tf.TensorSpec([3], tf.float16)])
def unsigned_and_half_forms(u, h):
    return tf.maximum(u, u), u < u, u // u, tf.cast(u, tf.float32), h * h
# CHECK-LABEL: func.func @unsigned_and_half_forms(
# CHECK:         arith.maxui
# CHECK:         arith.cmpi ult
# CHECK:         arith.divui
# CHECK:         arith.uitofp
# CHECK:         arith.mulf {{.*}} : f16


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.int32)])
def compare_forms(x, a):
    return x < x, a >= a, tf.equal(x, x), tf.not_equal(a, a)
# CHECK-LABEL: func.func @compare_forms(
# CHECK:         arith.cmpf olt
# CHECK:         arith.cmpi sge
# CHECK:         arith.cmpf oeq
# CHECK:         arith.cmpi ne


# Integer floor division: the divisors checked once before the loop (an ag.assert that
# guards them), then MIN // -1 wraps rather than trapping.
@tf.function(input_signature=[tf.TensorSpec([3], tf.int32)])
def custom_forms(a):
    return a // a, tf.nn.relu6(a), tf.sign(a)
# CHECK-LABEL: func.func @custom_forms(
# CHECK:       linalg.reduce
# CHECK:       ag.assert {{.*}}"{{.*}}elementwise.py:[[@LINE-3]]:12: integer division by zero (tf.math.floordiv)"
# CHECK:       linalg.generic
# CHECK:         arith.floordivsi
# CHECK:         arith.select
# CHECK:       linalg.generic
# CHECK:         arith.maxsi
# CHECK:         arith.minsi
# CHECK:       linalg.generic
# CHECK-COUNT-2: arith.select


@tf.function(input_signature=[tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.bool)])
def where_clip_cast(x, c):
    return tf.where(c, x, -x), tf.clip_by_value(x, 0.0, 1.0), tf.cast(x, tf.int32)
# CHECK-LABEL: func.func @where_clip_cast(
# CHECK:         arith.negf
# CHECK:         arith.select
# tf.clip_by_value is maximum(minimum(t, hi), lo): lo wins where lo > hi.
# CHECK:         arith.minimumf %{{.*}}, %[[HI:in_[0-9]+]]
# CHECK-NEXT:    arith.maximumf %{{.*}}, %[[LO:in_[0-9]+]]
# tf.cast to int32: fptosi only where the integer fits (out of range it is LLVM's poison),
# else int32's most negative, x86-64's "integer indefinite", as TensorFlow's cast gives.
# CHECK:         %[[LOW:.*]] = arith.constant -2.14748365E+9 : f32
# CHECK-NEXT:    %[[GE:.*]] = arith.cmpf oge, %[[X:in[_0-9]*]], %[[LOW]]
# CHECK-NEXT:    %[[HIGH:.*]] = arith.constant 2.14748365E+9 : f32
# CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[HIGH]]
# CHECK-NEXT:    %[[FITS:.*]] = arith.andi %[[GE]], %[[LT]]
# CHECK-NEXT:    %[[MIN:.*]] = arith.constant -2147483648 : i32
# CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[X]] : f32 to i32
# CHECK-NEXT:    arith.select %[[FITS]], %[[I]], %[[MIN]] : i32


# Python's %: the correction for differing signs is chosen from the signs of x and y,
# beside the division, so that only a test of the remainder and an add follow it (a
# loop whose remainder is the next divisor, as Euclid's, waits on nothing else).
@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def int_mod(x, y):
    return x % y
# (In the branch of scalar_floor_mod below where the signs may differ.)
# CHECK-LABEL: func.func @int_mod(
# CHECK:       %[[X:.*]] = tensor.extract %arg0[]
# CHECK:       scf.if
# CHECK:       } else {
# CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
# CHECK-NEXT:    %[[R:.*]] = arith.remsi %[[X]], %[[D:.*]] : i32
# CHECK-NEXT:  %[[NONZERO:.*]] = arith.cmpi ne, %[[R]], %[[ZERO]]
# CHECK-NEXT:  %[[DNEG:.*]] = arith.cmpi slt, %[[D]], %[[ZERO]]
# CHECK-NEXT:  %[[XNEG:.*]] = arith.cmpi slt, %[[X]], %[[ZERO]]
# CHECK-NEXT:  %[[DIFFER:.*]] = arith.xori %[[XNEG]], %[[DNEG]]
# CHECK-NEXT:  %[[CORR:.*]] = arith.select %[[DIFFER]], %[[D]], %[[ZERO]]
# CHECK-NEXT:  %[[SUM:.*]] = arith.addi %[[R]], %[[CORR]]
# CHECK-NEXT:  arith.select %[[NONZERO]], %[[SUM]], %[[R]]


# One value (a 0-d op, not a loop's element): the integer floor division and modulo in
# branches the hardware predicts, not selects around the division: both operands
# positive, the unsigned division alone; a divisor of -1 (MIN // -1 wraps, MIN % -1 is
# 0); otherwise the signed one, floored. The divisor checked for 0 first.
@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def scalar_floor_mod(a, b):
    return a % b
# CHECK-LABEL: func.func @scalar_floor_mod(
# CHECK-NOT:   linalg.generic
# CHECK:       %[[X:.*]] = tensor.extract %arg0[]
# CHECK:       %[[Y:.*]] = tensor.extract %arg1[]
# CHECK:       %[[D:.*]] = ag.assert %{{.*}}, "{{.*}}integer division by zero (tf.math.floormod)" guards %[[Y]]
# CHECK:       %[[YPOS:.*]] = arith.cmpi sgt, %[[D]]
# CHECK-NEXT:  %[[XPOS:.*]] = arith.cmpi sge, %[[X]]
# CHECK-NEXT:  %[[BOTH:.*]] = arith.andi %[[XPOS]], %[[YPOS]]
# CHECK-NEXT:  %[[R:.*]] = scf.if %[[BOTH]] -> (i32) {
# CHECK-NEXT:    %[[U:.*]] = arith.remui %[[X]], %[[D]]
# CHECK-NEXT:    scf.yield %[[U]]
# CHECK-NEXT:  } else {
# CHECK:         %[[M1:.*]] = arith.cmpi eq, %[[D]], %c-1_i32
# CHECK-NEXT:    scf.if %[[M1]] -> (i32) {
# CHECK:         } else {
# CHECK:           arith.remsi %[[X]]
# CHECK:       tensor.from_elements %[[R]]
