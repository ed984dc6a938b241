"""The examples of AutoGraph's reference page on common errors
(tensorflow/python/autograph/g3doc/reference/common_errors.md), restated with tensor
inputs: loops that run as Python, a tensor used as a Python bool or iterated where
AutoGraph does not convert the code (comprehensions, generators, autograph=False), tensors
that escape the block they were made in, custom exceptions, and lambdas."""
import tensorflow as tf


# --- "WARNING: Large unrolled loop detected" --------------------------------------------

@tf.function
def python_range_unrolled(n):
    """Large unrolled loop: a Python range loop is unrolled, one addition per step."""
    step = tf.constant(0)
    for _ in range(n):
        step += 1
    return step


@tf.function
def tf_range_staged(n):
    """Large unrolled loop: the remedy, tf.range, one staged loop."""
    step = tf.constant(0)
    for _ in tf.range(n):
        step += 1
    return step


def each_of(items):
    for item in items:
        yield item


@tf.function
def custom_generator_is_python_loop(x):
    """Large unrolled loop: a loop over a custom generator is always a Python loop."""
    total = tf.zeros_like(x)
    for v in each_of([1.0, 2.0, 3.0]):
        total += x * v
    return total


@tf.function
def custom_generator_over_tensor(x):
    """Large unrolled loop: a custom generator that wraps a tensor iterates it as Python,
    where iterating over a tf.Tensor is not allowed."""
    total = tf.zeros_like(x[0])
    for v in each_of(x):
        total += v
    return total


# --- "OperatorNotAllowedInGraphError: using a `tf.Tensor` as a Python `bool`" -----------

@tf.function
def python_loop_tensor_break(x):
    """Tensor as a Python bool: a break under a tensor test inside a Python loop."""
    for i in range(3):
        if i > x:
            break
    return x


@tf.function
def tf_loop_tensor_break(n, x):
    """Tensor as a Python bool: the remedy, all control flow staged."""
    count = 0
    for i in tf.range(n):
        if i > x:
            break
        count += 1
    return count


@tf.function
def python_loop_tensor_return(x):
    """Tensor as a Python bool: a return under a tensor test inside a Python loop."""
    for i in range(3):
        if i > x:
            return i
    return -1


@tf.function
def comprehension_iterates_tensor(x):
    """Tensor as a Python bool: a list comprehension iterating over a tensor."""
    return tf.stack([v * 2.0 for v in x])


@tf.function
def comprehension_tests_tensor(x):
    """Tensor as a Python bool: a list comprehension with a tensor in its condition."""
    return tf.stack([tf.constant(float(i)) for i in range(4) if i < x])


@tf.function
def comprehension_python_values(x):
    """Tensor as a Python bool: a comprehension over Python values is fine."""
    return tf.stack([x * float(i) for i in range(4) if i % 2 == 1])


@tf.function(autograph=False)
def autograph_off_if(x):
    """Tensor as a Python bool, AutoGraph off: the condition of an if."""
    if x > 0:
        x = x * 2
    return x


@tf.function(autograph=False)
def autograph_off_while(x):
    """Tensor as a Python bool, AutoGraph off: the condition of a while."""
    while x > 0:
        x = x - 1
    return x


@tf.function(autograph=False)
def autograph_off_logical_and(x, y):
    """Tensor as a Python bool, AutoGraph off: `tensor and another_tensor`."""
    return x and y


@tf.function(autograph=False)
def autograph_off_bool(x):
    """Tensor as a Python bool, AutoGraph off: bool(tensor)."""
    return bool(x)


@tf.function(autograph=False)
def autograph_off_no_control_flow(x, k):
    """AutoGraph off: ops and Python-valued control flow still trace."""
    if k > 1:
        x = x * k
    for _ in range(k):
        x = x + 1
    return x


@tf.function
def autograph_on_logical_and(x, y):
    """Tensor as a Python bool: with AutoGraph on, `and` of tensors is staged."""
    return x and y


# --- "OperatorNotAllowedInGraphError: iterating over `tf.Tensor`" -----------------------

@tf.function(autograph=False)
def autograph_off_for_over_tensor(x):
    """Iterating over a tensor, AutoGraph off: the iterated of a for."""
    total = tf.zeros_like(x[0])
    for v in x:
        total += v
    return total


@tf.function(autograph=False)
def autograph_off_iter(x):
    """Iterating over a tensor, AutoGraph off: iter(tensor)."""
    it = iter(x)
    return next(it)


@tf.function
def autograph_on_for_over_tensor(x):
    """Iterating over a tensor: with AutoGraph on, `for v in tensor` is a staged loop."""
    total = tf.zeros_like(x[0])
    for v in x:
        total += v
    return total


# --- "InaccessibleTensorError: The tensor is defined in another function or code block" ---

@tf.function
def tensor_escapes_cond_via_list(x):
    """InaccessibleTensorError: a tensor made in a staged if, kept in a list and used after."""
    kept = [x]
    if x > 0:
        kept.append(x * 2.0)
    else:
        kept.append(x * 3.0)
    return kept[-1]


@tf.function
def tensor_leaves_cond_functionally(x):
    """InaccessibleTensorError: the remedy, the value assigned to a name in both branches."""
    if x > 0:
        y = x * 2.0
    else:
        y = x * 3.0
    return y


# --- "StagingError: in converted code" ----------------------------------------------------

class LimitError(Exception):
    """A custom exception whose constructor takes more than a message."""

    def __init__(self, limit, got):
        super().__init__(f"limit {limit}, got {got}")
        self.limit = limit
        self.got = got


@tf.function
def custom_exception_while_tracing(x, k):
    """StagingError: a custom exception raised while tracing (a Python test) is reported."""
    if k > 3:
        raise LimitError(3, k)
    return x * k


# --- "Unable to identify source code of lambda function" ---------------------------------

def apply_pair(fn, a, b):
    return fn(a, b)


@tf.function
def lambda_in_simple_assignment(x, y):
    """Source of lambda functions: a lambda in its own assignment, with a staged test."""
    larger = lambda a, b: a if a > b else b  # noqa: E731
    return apply_pair(larger, x, y)


@tf.function
def lambda_inline_in_call(x, y):
    """Source of lambda functions: a lambda inlined in a call's arguments."""
    return apply_pair(lambda a, b: a * 2.0 + b, x, y), apply_pair(lambda a, b: a - b, y, x)
