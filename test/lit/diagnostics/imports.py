# RUN: %expect_exit 1 %agc --emit=ag -I %S/Inputs/imports %s 2>&1 | FileCheck %s --match-full-lines
# Imports of the user's modules: each failure is located at the import or the use, in the
# file where it is; a library agc does not know is refused where traced code uses it.
import tensorflow as tf

import broken_helper
import scipy.special


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def uses_broken(x):
    return broken_helper.model(x) + broken_helper.fine(x)
# CHECK:      {{.*}}imports.py:[[@LINE-1]]:26: error: 'broken_helper.model' cannot be used in compiled code: agc could not evaluate its definition at the top level of the file
# CHECK:      {{.*}}broken_helper.py:3:9: note: Keras ('tf.keras.Sequential') is not supported by agc{{.*}}
# CHECK:      {{.*}}imports.py:6:8: note: imported here


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def uses_library(x):
    return scipy.special.expit(x)
# CHECK:      {{.*}}imports.py:[[@LINE-1]]:12: error: 'scipy.special.expit' is not supported in traced code: 'scipy' is not a module agc found nor a library it knows
# CHECK:      {{.*}}imports.py:[[@LINE-2]]:12: note: agc looked for scipy.py and scipy/__init__.py in {{.*}}, in each -I directory and along AGC_PATH; it knows tensorflow, numpy, math, functools, dataclasses, enum, collections and typing


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def missing_name(x):
    from broken_helper import nothing
    return x
# CHECK:      {{.*}}imports.py:[[@LINE-2]]:31: error: ImportError: cannot import name 'nothing' from 'broken_helper' ({{.*}}broken_helper.py)


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def missing_submodule(x):
    import cyc.nothing
    return x
# CHECK:      {{.*}}imports.py:[[@LINE-2]]:12: error: ModuleNotFoundError: No module named 'cyc.nothing'


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def cycle(x):
    import cyc.a
    return x + cyc.b.Y
# CHECK:      {{.*}}imports.py:[[@LINE-1]]:22: error: 'cyc.b.Y' cannot be used in compiled code: agc could not evaluate its definition at the top level of the file
# CHECK:      {{.*}}b.py:3:5: note: 'a' cannot be used in compiled code: agc could not evaluate its definition at the top level of the file
# CHECK:      {{.*}}b.py:1:17: note: an import cycle: 'cyc.a' is being imported already (agc refuses cycles, where Python would see a module half made)


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def relative_in_main(x):
    from . import broken_helper
    return x
# CHECK:      {{.*}}imports.py:[[@LINE-2]]:5: error: ImportError: attempted relative import with no known parent package
