"""The examples of AutoGraph's reference page on limitations
(tensorflow/python/autograph/g3doc/reference/limitations.md), restated with tensor inputs
in place of tf.random: undefined and None values, hidden side effects, closures, Python
collections, static and dynamic shapes, and dtype and shape consistency in staged control
flow."""
import collections

import tensorflow as tf


# --- Undefined and None values in TensorFlow ------------------------------------------

@tf.function
def cond_branch_gives_none(x):
    """Undefined and None values: a tf.cond branch cannot return None."""
    return tf.cond(x > 0.5, lambda: tf.constant(7), lambda: None)


@tf.function
def none_in_else_used_after(x):
    """Undefined and None values: a name that is None on one branch, used after."""
    if x > 0.5:
        y = tf.constant(7)
    else:
        y = None
    tf.print(y)
    return x


@tf.function
def defined_in_one_branch_used_after(x):
    """Undefined and None values: a name defined in only one branch, used after."""
    if x > 0.5:
        y = tf.constant(7)
    else:
        pass
    tf.print(y)
    return x


@tf.function
def defined_in_one_branch_local(x):
    """Undefined and None values: not used after the if, the name is local to its branch."""
    if x > 0.5:
        y = tf.constant(7)  # noqa: F841
        tf.print("inside:", y)
    else:
        pass
    return x * 2


@tf.function
def defined_in_loop_used_after(x):
    """Undefined and None values: a name first assigned in a staged loop, used after."""
    while x > 0.5:
        y = tf.constant(7)
        x = x - 1.0
    tf.print(y)
    return x


@tf.function
def defined_in_loop_local(x):
    """Undefined and None values: not used after nor carried, the name is local to the loop."""
    while x > 0.5:
        y = tf.constant(7)
        x = x - tf.cast(y, tf.float32) / 7.0
    return x


@tf.function
def default_before_if(x):
    """Undefined and None values: a default before the if makes the name defined on all paths."""
    y = tf.constant(0)
    if x > 0.5:
        y = tf.constant(1)
    tf.print(y)
    return y


# --- Indirect modifications and hidden side effects -------------------------------------

@tf.function
def unaffected_symbol_not_carried(x):
    """AutoGraph analyzes code: `z` is not changed by the loop and is not a loop variable."""
    z = 0
    while x > 0:
        x = x - 1
    return x, z


def incremented(v):
    v = v + 1
    return v


@tf.function
def functional_helper_in_loop(x):
    """Modifications not detected across functions: the remedy, `y = change(y)`."""
    y = tf.constant(0)
    while x > 0:
        y = incremented(y)
        x = x - 1
    return y


counter = tf.Variable(1)


def bump(var):
    var.assign_add(1)


@tf.function
def variable_changed_in_helper(x):
    """Modifications not detected across functions: a tf.Variable changed in a helper is
    still seen (automatic control dependencies)."""
    while x > 0:
        bump(counter)
        x = x - 1
    return counter.read_value()


def wrote_one(ta):
    ta = ta.write(ta.size(), 1)
    return ta


@tf.function
def tensor_array_functional_style(x):
    """Modifications not detected across functions: a TensorArray is handled in functional
    style, `ta = change(ta)`."""
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    while x > 0:
        ta = wrote_one(ta)
        x = x - 1
    return ta.size()


class Tally(collections.namedtuple("Tally", ["y"])):
    """An immutable object: its 'change' method returns a new one."""

    def changed(self):
        return self._replace(y=self.y + 1)


@tf.function
def immutable_object_rebound(x):
    """Modifications not detected in methods: `c = c.change()` makes c a loop variable
    (a namedtuple subclass, which TensorFlow control flow supports)."""
    c = Tally(y=tf.constant(0))
    while x > 0:
        c = c.changed()
        x = x - 1
    return c.y


class Box:
    def __init__(self, y):
        self.y = y


@tf.function
def attribute_changed_in_loop(x):
    """Modifications not detected in methods: `c.y += 1` directly in the loop is tracked."""
    c = Box(tf.constant(0))
    while x > 0:
        c.y += 1
        x = x - 1
    return c.y


# --- Variables closed over by lambda functions ------------------------------------------

@tf.function
def closure_sees_loop_value(n):
    """Variables closed over: a local function's free variable is carried by the loop."""
    a = 0

    def show():
        tf.print(a)

    for i in tf.range(n):
        a = i
    show()
    return n


@tf.function
def closure_needs_definition_before_loop(n):
    """Variables closed over: the free variable of a local function must be defined before
    the loop, even if not used after it."""
    def show():
        tf.print(a)

    for i in tf.range(n):
        a = i  # noqa: F841
    return n


def consume(fn):
    return fn()


@tf.function
def lambda_used_in_place(n):
    """Variables closed over: a lambda used in its statement does not make `a` carried."""
    a = 0
    first = consume(lambda: a)
    for i in tf.range(n):
        a = i  # noqa: F841
    return first


@tf.function
def lambda_called_after_loop(n):
    """Variables closed over: a lambda defined before the loop and called after it."""
    a = 0
    show = lambda: tf.print(a)  # noqa: E731
    for i in tf.range(n):
        a = i
    show()
    return n


# --- Python collections in TensorFlow control flow --------------------------------------

@tf.function
def while_loop_body_appends(n):
    """Modifying Python collections: tf.while_loop's body appends to an outer list."""
    seen = []

    def keep_going(i):
        return i < n

    def step(i):
        i = i + 1
        seen.append(i)
        return (i,)

    tf.while_loop(keep_going, step, loop_vars=(0,))
    return seen


@tf.function
def list_append_in_staged_loop(n):
    """Modifying Python collections: appending to a list in a staged loop."""
    seen = []
    for i in tf.range(n):
        seen.append(i)
    return seen


@tf.function
def tensor_array_in_staged_loop(n):
    """Modifying Python collections: the remedy, a TensorArray."""
    seen = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        seen = seen.write(seen.size(), i)
    return seen.stack()


@tf.function
def static_list_item_in_loop(x):
    """Python collections of fixed structure: static_list[0] -= 1 in a staged loop."""
    static_list = [x]
    while static_list[0] > 0:
        static_list[0] -= 1
    return static_list[0]


class Record:
    pass


@tf.function
def static_object_field_in_loop(x):
    """Python collections of fixed structure: static_object.field -= 1 in a staged loop."""
    static_object = Record()
    static_object.field = x
    while static_object.field > 0:
        static_object.field -= 1
    return static_object.field


@tf.function
def static_dict_item_in_loop(x):
    """Python collections of fixed structure: static_dict['field'] -= 1 in a staged loop."""
    static_dict = {"field": x}
    while static_dict["field"] > 0:
        static_dict["field"] -= 1
    return static_dict["field"]


@tf.function
def dict_dynamic_key_in_loop(n):
    """Python collections with dynamic index: d[key] += i with key from a loop over d."""
    d = {"a": tf.constant(3)}
    for i in tf.range(n):
        for key in d:
            d[key] += i
    return d["a"]


@tf.function
def dict_rebuilt_in_loop(n):
    """Python collections with dynamic index: the remedy, a new dict each iteration."""
    d = {"a": tf.constant(3), "b": tf.constant(-1)}
    for i in tf.range(n):
        d = {key: value + i for key, value in d.items()}
    return d


# --- Shape and dtype consistency ---------------------------------------------------------

@tf.function
def static_index_out_of_bounds(x):
    """Mixing dynamic computations and static shapes: x[4] of a 3-element tensor."""
    return x[4]


@tf.function
def static_shape_guard(x):
    """Mixing dynamic computations and static shapes: a Python test on x.shape guards x[4]."""
    if x.shape[0] > 4:
        val = x[4]
    else:
        val = tf.constant(-1.0)
    return val


@tf.function
def dynamic_shape_guard_on_static_shape(x):
    """Mixing dynamic computations and static shapes: tf.shape(x)[0] > 4 is a tensor, so
    both branches are traced and x[4] is checked against the static shape."""
    if tf.shape(x)[0] > 4:
        val = x[4]
    else:
        val = tf.constant(-1.0)
    return val


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def dynamic_shape_guard_on_dynamic_shape(x):
    """Mixing dynamic computations and static shapes: with a dynamic shape the bounds are
    checked when the op runs, not while tracing."""
    if tf.shape(x)[0] >= 3:
        val = x[4]
    else:
        val = tf.constant(-1.0)
    return val


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def shape_is_none_test(x):
    """Mixing dynamic computations and static shapes: `x.shape[0] is None` is a Python test."""
    if x.shape[0] is None:
        n = tf.shape(x)[0]
    else:
        n = tf.constant(x.shape[0])
    return n


@tf.function
def cond_dtypes_differ(x):
    """Consistency of dtype: tf.cond branches of int32 and float32."""
    return tf.cond(x > 0.5, lambda: tf.constant(1, dtype=tf.int32),
                   lambda: tf.constant(1, dtype=tf.float32))


@tf.function
def if_dtypes_differ(x):
    """Consistency of dtype: the same in an AutoGraph if."""
    if x > 0.5:
        y = tf.constant(1, dtype=tf.int32)
    else:
        y = tf.constant(1, dtype=tf.float32)
    return y


@tf.function
def while_loop_dtype_changes(x):
    """Consistency of dtype: a tf.while_loop body that changes its variable's dtype."""
    return tf.while_loop(lambda v: x > 0.5, lambda v: tf.constant(1, dtype=tf.float32),
                         loop_vars=(tf.constant(1, dtype=tf.int32),))


@tf.function
def loop_dtype_changes(x):
    """Consistency of dtype: the same in an AutoGraph while."""
    y = tf.constant(0, dtype=tf.int32)
    while x > 0.5:
        y = tf.constant(0, dtype=tf.float32)
        x = x - 1.0
    return y


@tf.function
def if_shapes_differ(x):
    """Consistency of shape: shapes may differ across the branches of a conditional."""
    if x > 0.5:
        y = tf.constant([1, 2, 3])
    else:
        y = tf.constant([4, 5])
    return tf.reduce_sum(y), tf.size(y)


@tf.function
def while_loop_shape_changes(x):
    """Consistency of shape: a tf.while_loop body that changes its variable's shape."""
    return tf.while_loop(lambda v: x > 0.5, lambda v: tf.constant([1, 2, 3]),
                         loop_vars=(tf.constant(1),))


@tf.function
def loop_shape_changes(x):
    """Consistency of shape: the same in an AutoGraph while."""
    y = tf.constant(1)
    while x > 0.5:
        y = tf.constant([1, 2, 3])
        x = x - 1.0
    return y


# --- Access to source code: lambda functions --------------------------------------------

@tf.function
def nested_lambdas_same_argument(x):
    """Source code of lambda functions: nested lambdas with the same argument name."""
    add_one = lambda x: lambda x: x + 1  # noqa: E731
    return add_one(x)(x)


@tf.function
def nested_lambdas_distinct_arguments(x):
    """Source code of lambda functions: nested lambdas with distinct argument names."""
    add_outer = lambda outer_x: lambda inner_x: inner_x + outer_x  # noqa: E731
    return add_outer(x)(x)


def returns_lambda():
    return lambda a, b: a * b - b


@tf.function
def lambdas_declared_simply(x, y):
    """Source code of lambda functions: a lambda in a single assignment or return."""
    in_assignment = lambda a, b: a * b - b  # noqa: E731
    return in_assignment(x, y), returns_lambda()(y, x)


# --- Access to source code: functions created dynamically -------------------------------

tripled = eval("lambda v: v * 3")  # noqa: S307
magnitude = eval("lambda v: v if v >= 0 else -v")  # noqa: S307


@tf.function
def function_made_by_eval(x):
    """Access to source code: a function made by eval has no source; it is called as it is."""
    return tripled(x) + 1


@tf.function
def function_made_by_eval_with_tensor_test(x):
    """Access to source code: unconverted, its conditional expression tests a tensor."""
    return magnitude(x)
