"""TensorFlow's explicit control flow, as its API documentation and users write it:
tf.cond, tf.while_loop, tf.case and tf.switch_case with lambdas and nested functions,
nested outputs and loop variables, shape invariants, maximum_iterations; mixed with
AutoGraph's implicit control flow; and the misuses TensorFlow refuses while tracing."""
import collections

import tensorflow as tf

Pair = collections.namedtuple("Pair", "j, k")


# --- tf.cond ------------------------------------------------------------------------

@tf.function
def cond_from_docs(x, y):
    # tf.cond's documentation: the branch taken depends on the value of x < y.
    z = tf.multiply(x, y)
    return tf.cond(x < y, lambda: tf.add(x, z), lambda: tf.square(y))


@tf.function
def cond_with_defs(x):
    def positive():
        return x * 2.0

    def negative():
        return -x

    return tf.cond(tf.reduce_sum(x) > 0, positive, negative)


@tf.function
def cond_keywords(x):
    return tf.cond(pred=x > 0, true_fn=lambda: x + 1, false_fn=lambda: x - 1, name="pick")


@tf.function
def cond_tuple_and_dict(x):
    out = tf.cond(x > 0, lambda: (x, {"twice": x * 2}), lambda: (x - 1, {"twice": x}))
    return out[0] + out[1]["twice"]


@tf.function
def cond_namedtuple(x):
    p = tf.cond(x > 0.0, lambda: Pair(x, x + 1.0), lambda: Pair(-x, 0.0))
    return p.j * p.k


@tf.function
def cond_python_numbers(x):
    # A Python number from a branch becomes a tensor (int32 here, in both).
    return tf.cond(x > 0, lambda: 1, lambda: 2)


@tf.function
def cond_shapes_join(v):
    # Branches of different shapes give a result of the shape that admits both.
    r = tf.cond(tf.reduce_sum(v) > 0, lambda: v, lambda: tf.concat([v, v], 0))
    return tf.shape(r)[0], tf.reduce_sum(r)


@tf.function
def cond_none_from_both(x):
    tf.cond(x > 0, lambda: None, lambda: None)
    return x


@tf.function
def cond_prints(x):
    def loud():
        tf.print("big", x)
        return x

    def quiet():
        tf.print("small")
        return x * 0

    return tf.cond(x > 10, loud, quiet)


@tf.function
def cond_nested_conds(x):
    return tf.cond(
        x > 0,
        lambda: tf.cond(x > 10, lambda: 2, lambda: 1),
        lambda: tf.cond(x < -10, lambda: -2, lambda: -1),
    )


@tf.function
def cond_pred_of_one_element(v):
    return tf.cond(tf.reduce_all(v > 0, keepdims=True), lambda: 1.0, lambda: 0.0)


@tf.function
def cond_in_python_loop(x):
    for k in range(3):
        x = tf.cond(x > k, lambda: x - 1, lambda: x + 1)
    return x


@tf.function
def cond_inside_implicit_while(n):
    i = 0
    s = 0
    while i < n:
        s = tf.cond(i % 2 == 0, lambda: s + i, lambda: s - i)
        i += 1
    return s


@tf.function
def implicit_if_inside_branch(x):
    def branch():
        if x > 5:
            y = x * 10
        else:
            y = x
        return y

    return tf.cond(x > 0, branch, lambda: -x)


@tf.function
def cond_with_variable_read(x):
    return tf.cond(x > 0, lambda: counter + x, lambda: counter - x)


counter = tf.Variable(100)


@tf.function
def cond_python_pred(x):
    # TensorFlow refuses a Python bool: a Python if decides that while tracing.
    return tf.cond(True, lambda: x, lambda: -x)


@tf.function
def cond_structures_differ(x):
    return tf.cond(x > 0, lambda: (x, x), lambda: x)


@tf.function
def cond_list_and_tuple(x):
    return tf.cond(x > 0, lambda: [x], lambda: (x,))


@tf.function
def cond_dtypes_differ(x):
    return tf.cond(x > 0, lambda: 1, lambda: 2.5)


@tf.function
def cond_missing_false_fn(x):
    return tf.cond(x > 0, lambda: x)


@tf.function
def cond_branch_not_callable(x):
    return tf.cond(x > 0, x, lambda: x)


@tf.function
def cond_returns_operation(x):
    return tf.no_op()


# --- tf.while_loop ------------------------------------------------------------------

@tf.function
def while_from_docs(n):
    # tf.while_loop's documentation: i = 0; while i < 10: i += 1.
    i = tf.constant(0)
    c = lambda i: tf.less(i, n)
    b = lambda i: (tf.add(i, 1),)
    r = tf.while_loop(c, b, [i])
    return r


@tf.function
def while_two_vars(n):
    i, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (0, 0))
    return i, total


@tf.function
def while_body_returns_bare_tensor(n):
    (i,) = tf.while_loop(lambda i: i < n, lambda i: i + 1, (0,))
    return i


@tf.function
def while_list_for_tuple(n):
    # The body may give a list where loop_vars is a tuple; the result keeps the tuple.
    return tf.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, s * 2], (0, 1))


@tf.function
def while_namedtuple_docs(n):
    # tf.while_loop's documentation: nested loop variables (a namedtuple).
    ijk_0 = (tf.constant(0), Pair(tf.constant(1), tf.constant(2)))
    c = lambda i, p: i < n
    b = lambda i, p: (i + 1, Pair((p.j + p.k), (p.j - p.k)))
    ijk_final = tf.while_loop(c, b, ijk_0)
    return ijk_final[0], ijk_final[1].j, ijk_final[1].k


@tf.function
def while_dict_var(n):
    def body(state):
        return ({"count": state["count"] + 1, "acc": state["acc"] * 2.0},)

    (final,) = tf.while_loop(lambda s: s["count"] < n, body, [{"count": 0, "acc": 1.0}])
    return final["acc"]


@tf.function
def while_shape_invariants_docs(n):
    # tf.while_loop's documentation: a tensor that grows along its first dimension.
    i0 = tf.constant(0)
    m0 = tf.ones([2, 2])
    c = lambda i, m: i < n
    b = lambda i, m: [i + 1, tf.concat([m, m], axis=0)]
    i, m = tf.while_loop(c, b, loop_vars=[i0, m0],
                         shape_invariants=[i0.get_shape(), tf.TensorShape([None, 2])])
    return i, tf.shape(m)


@tf.function
def while_maximum_iterations(n):
    return tf.while_loop(lambda i: i < n, lambda i: i + 1, [0], maximum_iterations=4)


@tf.function
def while_maximum_iterations_tensor(n, most):
    return tf.while_loop(lambda i: True, lambda i: i + 2, [0], maximum_iterations=most)


@tf.function
def while_parallel_iterations(x):
    return tf.while_loop(lambda v: tf.reduce_sum(v) < 100.0, lambda v: v * 2.0, [x],
                         parallel_iterations=1, swap_memory=False)


@tf.function
def while_python_float_var(limit):
    return tf.while_loop(lambda t: t < limit, lambda t: t + 1, [0.5])


@tf.function
def while_body_prints(n):
    def body(i):
        tf.print("step", i)
        return (i + 1,)

    return tf.while_loop(lambda i: i < n, body, (0,))


@tf.function
def while_with_cond_inside(n):
    def body(i, evens):
        evens = tf.cond(i % 2 == 0, lambda: evens + 1, lambda: evens)
        return i + 1, evens

    return tf.while_loop(lambda i, e: i < n, body, (0, 0))[1]


@tf.function
def while_nested_while(n):
    def outer(i, total):
        (_, inner) = tf.while_loop(lambda j, s: j < i, lambda j, s: (j + 1, s + j), (0, 0))
        return i + 1, total + inner

    return tf.while_loop(lambda i, t: i < n, outer, (0, 0))


@tf.function
def while_closes_over_tensor(x, n):
    step = x * 2.0
    return tf.while_loop(lambda k, acc: k < n, lambda k, acc: (k + 1, acc + step), (0, 0.0))


@tf.function
def while_tensor_array(n):
    ta = tf.TensorArray(tf.int32, size=n)
    _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i * i)),
                          (0, ta))
    return ta.stack()


@tf.function
def while_cond_test_of_one_element(n):
    return tf.while_loop(lambda i: tf.reshape(i < n, [1]), lambda i: i + 1, [0])


@tf.function
def while_implicit_loop_in_body(n):
    def body(i, s):
        for k in tf.range(i):
            s += k
        return i + 1, s

    return tf.while_loop(lambda i, s: i < n, body, (0, 0))


@tf.function
def while_loop_vars_not_a_list(x):
    return tf.while_loop(lambda i: i < 10, lambda i: i + 1, x)


@tf.function
def while_shape_changes(v):
    return tf.while_loop(lambda t: tf.size(t) < 8, lambda t: tf.concat([t, t], 0), [v])


@tf.function
def while_dtype_changes(x):
    return tf.while_loop(lambda t: t < 8, lambda t: tf.cast(t, tf.float32), [x])


@tf.function
def while_structure_changes(x):
    return tf.while_loop(lambda a, b: a < 8, lambda a, b: (a + 1,), [x, x])


@tf.function
def while_dict_without_wrapping(n):
    # The body must give [dict] for loop_vars [dict]: a bare dict is another structure.
    return tf.while_loop(lambda d: d["a"] < n, lambda d: {"a": d["a"] + 1}, [{"a": 0}])


@tf.function
def while_parallel_iterations_zero(x):
    return tf.while_loop(lambda i: i < x, lambda i: i + 1, [0], parallel_iterations=0)


@tf.function
def while_maximum_iterations_float(x):
    return tf.while_loop(lambda i: i < x, lambda i: i + 1, [0], maximum_iterations=2.0)


@tf.function
def while_maximum_iterations_int64(x):
    return tf.while_loop(lambda i: i < x, lambda i: i + 1, [0],
                         maximum_iterations=tf.constant(2, tf.int64))


@tf.function
def while_invariant_does_not_admit(x):
    return tf.while_loop(lambda t: tf.size(t) < 8, lambda t: tf.concat([t, t], 0), [x],
                         shape_invariants=[tf.TensorShape([3])])


# --- tf.case and tf.switch_case -------------------------------------------------------

@tf.function
def case_from_docs(x, y):
    # tf.case's documentation: if (x < y) return 17; else return 23.
    f1 = lambda: tf.constant(17)
    f2 = lambda: tf.constant(23)
    return tf.case([(tf.less(x, y), f1)], default=f2)


@tf.function
def case_exclusive_docs(x, y, z):
    # if (x < y) return 17; elif (x > z) return 23; else return -1 (exclusive).
    f1 = lambda: tf.constant(17)
    f2 = lambda: tf.constant(23)
    f3 = lambda: tf.constant(-1)
    return tf.case([(tf.less(x, y), f1), (tf.greater(x, z), f2)], default=f3, exclusive=True)


@tf.function
def case_first_true_wins(x):
    return tf.case([(x > 0, lambda: 1), (x > 1, lambda: 2)], default=lambda: 3)


@tf.function
def case_without_default(x):
    # The last pair is the default: its predicate must hold when no other does.
    return tf.case([(x < 0, lambda: -1.0), (x >= 0, lambda: 1.0)])


@tf.function
def case_tuples(x):
    return tf.case([(x > 0, lambda: (x, x * 2))], default=lambda: (-x, x))


@tf.function
def case_python_pred(x):
    return tf.case([(True, lambda: 1)], default=lambda: 3)


@tf.function
def case_dtypes_differ(x):
    return tf.case([(x > 0, lambda: 1)], default=lambda: 3.0)


@tf.function
def switch_case_from_docs(branch_index):
    # tf.switch_case's documentation: a dict of branches and a default.
    def f1():
        return tf.constant(17)

    def f2():
        return tf.constant(31)

    def f3():
        return tf.constant(-1)

    return tf.switch_case(branch_index, branch_fns={0: f1, 1: f2}, default=f3)


@tf.function
def switch_case_list(i, x):
    return tf.switch_case(i, [lambda: x, lambda: x * 2.0, lambda: x * 3.0])


@tf.function
def switch_case_pairs(i):
    return tf.switch_case(i, [(1, lambda: 11), (0, lambda: 10)])


@tf.function
def switch_case_structures(i, x):
    return tf.switch_case(i, [lambda: {"v": x, "n": 0}, lambda: {"v": x + 1.0, "n": 1}])


@tf.function
def switch_case_python_index(x):
    return tf.switch_case(1, [lambda: 10, lambda: 11])


@tf.function
def switch_case_int64_index(i):
    return tf.switch_case(tf.cast(i, tf.int64), [lambda: 10, lambda: 11])


@tf.function
def switch_case_keys_with_gap(i):
    return tf.switch_case(i, {0: lambda: 10, 2: lambda: 11})


@tf.function
def switch_case_structures_differ(i):
    return tf.switch_case(i, [lambda: (1, 2), lambda: 3])


# --- tf.identity, tf.stop_gradient, tf.no_op, tf.group ----------------------------------

@tf.function
def identity_and_stop_gradient(x):
    y = tf.identity(x * 2.0)
    return tf.stop_gradient(y) + tf.identity(1.5)


@tf.function
def group_as_control_dependency(x):
    a = x + 1
    b = x * 2
    done = tf.group(a, b)
    with tf.control_dependencies([done, tf.no_op()]):
        return a + b


@tf.function
def group_returned(x):
    return tf.group(x, x + 1)
