"""The examples of AutoGraph's reference page on functions and function calls
(tensorflow/python/autograph/g3doc/reference/functions.md), restated with tensor inputs:
which calls AutoGraph converts (so their tensor control flow is staged) and which it
forwards as they are (so a tensor used as a Python bool there is refused while tracing)."""
import collections

import tensorflow as tf


def weighted(a, b, c=1):
    # A plain helper: converted when called from a tf.function, its `if` staged.
    if a > b:
        return a * c
    return b * c


def sign_of(v):
    if v >= 0:
        out = tf.ones_like(v)
    else:
        out = -tf.ones_like(v)
    return out


def count_down(v):
    steps = 0
    while v > 0:
        v -= 2
        steps += 1
    return steps


def doubled_then_counted(v):
    # Calls another helper: conversion is recursive.
    return count_down(v * 2)


@tf.function
def call_with_keyword(x, y):
    """Function calls: `f(x, y, z=1)` goes through converted_call, keywords included."""
    return weighted(x, y, c=3), weighted(x, y)


@tf.function
def called_helper_is_converted(x):
    """Function calls: the called function is converted first, its `if` becomes tf.cond."""
    return sign_of(x) * 10.0


@tf.function
def conversion_is_recursive(n):
    """Function calls: a converted function's own calls are converted in turn."""
    return doubled_then_counted(n)


def apply_twice(fn, v):
    return fn(fn(v))


def halve_if_even(v):
    if v % 2 == 0:
        v = v // 2
    return v


@tf.function
def function_passed_as_argument(n):
    """Function calls: every callable is called through the wrapper, arguments too."""
    return apply_twice(halve_if_even, n)


@tf.function
def builtins_are_forwarded(x, k):
    """Function conversion rules: most built-ins are not converted, only forwarded
    (abs, len, max and range have AutoGraph overloads for tensors)."""
    total = tf.zeros_like(x[0])
    for i in range(len(x)):
        total += abs(x[i])
    return total, max(k, 2), min(k, 2)


class Accumulator:
    """A class whose constructor tests its argument."""

    def __init__(self, start):
        value = start
        if start < 0:
            value = -start
        self.value = value

    def add(self, v):
        # A method: converted, so this `if` is staged when v is a tensor.
        if v > 0:
            return self.value + v
        return self.value


@tf.function
def constructor_with_python_test(k, x):
    """Function conversion rules: a constructor is called unconverted; a Python test in it
    is fine; the method it then calls is converted."""
    acc = Accumulator(k)
    return acc.add(x)


@tf.function
def constructor_with_tensor_test(x):
    """Function conversion rules: constructors are not converted, so a tensor test in
    __init__ is a tensor used as a Python bool (refused while tracing)."""
    acc = Accumulator(x)
    return acc.value


def squares_upto(n):
    for i in range(n):
        yield i * i


@tf.function
def generator_called_unconverted(x, n):
    """Function conversion rules: a generator function runs as Python (unconverted)."""
    total = tf.zeros_like(x)
    for sq in squares_upto(n):
        total += x * sq
    return total


def positives(t):
    for v in t:
        if v > 0:
            yield v


@tf.function
def generator_with_tensor_test(x):
    """Function conversion rules: an unconverted generator that iterates a tensor and tests
    its elements is refused (iterating over / bool of a tf.Tensor in graph mode)."""
    total = tf.zeros_like(x[0])
    for v in positives(x):
        total += v
    return total


@tf.function
def nested_function_converted(x):
    """Nested functions: a function defined inside is converted with its parent."""
    def clip_low(v):
        if v < 0.0:
            v = 0.0 * v
        return v

    return clip_low(x) + clip_low(x - 5.0)


def make_thresholder(limit):
    def thresholder(v):
        if v > limit:
            return limit
        return v
    return thresholder


@tf.function
def returned_nested_function(x):
    """Nested functions: a returned nested function is the converted version."""
    cap = make_thresholder(4.0)
    return cap(x)


def make_scaler(factor):
    def scaler(v):
        while v < 100:
            v = v * factor
        return v
    return scaler


@tf.function
def free_variables_differ(x):
    """Function calls (note on caching): the same nested function with different free
    variables is handled correctly."""
    by_two = make_scaler(2)
    by_three = make_scaler(3)
    return by_two(x), by_three(x)


@tf.function
def lambda_is_converted(x):
    """Function calls: a lambda is called through the wrapper and converted; a conditional
    expression in it is staged."""
    magnitude = lambda v: v if v >= 0 else -v  # noqa: E731
    return magnitude(x) + 1


Pair = collections.namedtuple("Pair", ["lo", "hi"])


@tf.function
def namedtuple_constructor(x, y):
    """Function conversion rules: a namedtuple's constructor is called unconverted."""
    p = Pair(lo=tf.minimum(x, y), hi=tf.maximum(x, y))
    if p.hi - p.lo > 1:
        p = Pair(p.lo, p.lo + 1)
    return p.hi - p.lo


def forward_all(fn, *args, **kwargs):
    return fn(*args, **kwargs)


@tf.function
def star_args_forwarding(x, y):
    """Function calls: positional and keyword arguments are forwarded as given."""
    return forward_all(weighted, x, y, c=2), forward_all(weighted, a=y, b=x)


class Floor:
    """A context manager whose __enter__ tests the level it was made with."""

    def __init__(self, level):
        self.level = level

    def __enter__(self):
        depth = self.level
        if self.level < 0:
            depth = 0 * self.level
        return depth

    def __exit__(self, exc_type, exc, tb):
        return False


@tf.function
def context_manager_methods(level, x):
    """Function conversion rules: __enter__ and __exit__ are not converted; a Python test
    in them is fine, a tensor test is a tensor used as a Python bool."""
    with Floor(level) as depth:
        y = x * depth
    return y
