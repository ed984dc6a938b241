"""Programs of several files: the user's own modules, imported by name, from a package with
relative imports, with `as`; each module reads its own names (SCALE here is not the helper
module's)."""
import tensorflow as tf

import mf_helpers
import mf_pkg
import mf_pkg.ops as ops
from mf_helpers import Clip, count_down
from mf_helpers import scaled as sc
from mf_pkg.consts import OFFSET

SCALE = 100.0
clip = Clip(-1.0, 5.0)


@tf.function
def imported_functions(x):
    return sc(x) + mf_helpers.scaled(x) + mf_pkg.square(x) + ops.square(x) + OFFSET + SCALE


@tf.function
def imported_staged_loop(n):
    return count_down(n) + mf_pkg.VERSION


@tf.function
def imported_class_instance(x):
    return clip(x * 2.0) + mf_pkg.consts.OFFSET


@tf.function
def imported_staged_if(x):
    return ops.cube_if_positive(x)


@tf.function
def missing_attribute(x):
    return mf_helpers.nothing(x)
