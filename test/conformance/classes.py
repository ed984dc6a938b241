"""Classes while tracing: tf.Module subclasses whose __init__ makes tf.Variables (the
TensorFlow guide "Introduction to modules"), plain classes and dataclasses holding
configuration, properties, static and class methods, inheritance and super(), decorators
that are plain Python functions, and functools."""
import dataclasses
import functools

import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable([[0.5 * (i + 1) - j for j in range(out_features)]
                              for i in range(in_features)], name="w")
        self.b = tf.Variable([0.25] * out_features, name="b")

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    @tf.function
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


my_model = SequentialModule(name="the_model")


@tf.function
def sequential_module(x):
    return my_model(x)


@tf.function
def module_variables(x):
    names = [v.name for v in my_model.trainable_variables]
    return x + len(my_model.variables) * 100 + len(my_model.name) + len(names)


class FlexibleDense(tf.Module):
    """Variables made on the first call would need tracing to run __init__ code; this one
    makes them in __init__ and grows them with assign."""

    def __init__(self, units):
        super().__init__()
        self.units = units
        self.calls = tf.Variable(0)
        self.scale = tf.Variable(1.0)

    def __call__(self, x):
        self.calls.assign_add(1)
        if tf.reduce_sum(x) > 0:
            out = x * self.scale * self.units
        else:
            out = -x
        return out


flexible = FlexibleDense(units=3)


@tf.function
def module_with_state(x):
    a = flexible(x)
    b = flexible(a)
    return a + b, flexible.calls.read_value()


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    scale: float
    shift: float = 1.0
    steps: int = 3
    tags: list = dataclasses.field(default_factory=list)


CONFIG = TrainConfig(2.0, steps=4)


@tf.function
def dataclass_config(x):
    for _ in range(CONFIG.steps):
        x = x * CONFIG.scale + CONFIG.shift
    return x + len(CONFIG.tags)


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0

    def norm2(self):
        return self.x * self.x + self.y * self.y


@tf.function
def dataclass_methods(x):
    p = Point(x, y=2.0)
    q = Point(3.0)
    q.y = 4.0
    same = Point(1.0, 2.0) == Point(1.0, 2.0)
    return p.norm2() + q.norm2() + same + len(dataclasses.astuple(q))


class Counter:
    created = 0

    def __init__(self, start):
        self.value = start
        Counter.created += 1

    @property
    def doubled(self):
        return self.value * 2

    @staticmethod
    def offset(v):
        return v + 100

    @classmethod
    def make(cls, v):
        return cls(v)

    def bump(self, by=1):
        self.value = self.value + by
        return self


class TenTimes(Counter):
    def bump(self, by=1):
        super().bump(by * 10)
        return self


@tf.function
def plain_classes(x):
    c = TenTimes.make(x)
    c.bump().bump(2)
    return c.doubled + Counter.offset(1.0) + isinstance(c, Counter) + Counter.created


class Base:
    def describe(self):
        return "base"

    def run(self, x):
        return x * len(self.describe())


class Left(Base):
    def describe(self):
        return "left+" + super().describe()


class Right(Base):
    def describe(self):
        return "right+" + super().describe()


class Both(Left, Right):
    pass


@tf.function
def multiple_inheritance_mro(x):
    # Both -> Left -> Right -> Base: "left+right+base"
    return Both().run(x)


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        if x > 0:
            return x * self.factor
        return x


@tf.function
def callable_instance_with_staged_if(x):
    double = Scaler(2.0)
    return double(x) + double(x * 3)


class Accumulator:
    def __init__(self):
        self.items = []

    def add(self, value):
        self.items.append(value)

    def total(self):
        return tf.add_n(self.items)


@tf.function
def instance_holds_a_list(x):
    acc = Accumulator()
    for k in range(3):
        acc.add(x * k)
    return acc.total() + len(acc.items)


@tf.function
def getattr_hasattr_setattr(x):
    c = Counter(x)
    setattr(c, "extra", 5.0)
    has = hasattr(c, "extra") + hasattr(c, "missing")
    return getattr(c, "value") + getattr(c, "missing", 10.0) + c.extra + has


def twice(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 2
    return wrapper


@twice
def plus_one(v):
    return v + 1


def repeat(times):
    def decorate(fn):
        def wrapper(v):
            for _ in range(times):
                v = fn(v)
            return v
        return wrapper
    return decorate


@repeat(3)
def halve(v):
    return v / 2


@tf.function
def decorators_and_functools(x):
    add3 = functools.partial(tf.add, 3.0)
    scale = functools.partial(tf.multiply, y=10.0)
    product = functools.reduce(lambda a, b: a * b, [1, 2, 3, 4])
    return plus_one(x) + add3(x) + scale(x) + product + halve(x)


@tf.function
@twice
def decorated_entry_point(x):
    return x + 1


@tf.function
def frozen_dataclass_assignment(x):
    CONFIG.scale = 3.0
    return x


@tf.function
def missing_attribute(x):
    return x + Counter(1).nothing


@tf.function
def dataclass_missing_field(x):
    return Point() + x


class Affine(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(3.0)
        self.steps = tf.Variable(0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        self.steps.assign_add(1)
        return self.shifted(x) * self.scale

    @tf.function
    def shifted(self, x, shift=1.0):
        if tf.reduce_sum(x) > 0:
            return x + shift
        return x - shift


affine = Affine()


class Recorder:
    """A context manager of the user's: Python that runs while tracing."""

    def __init__(self):
        self.events = []

    def __enter__(self):
        self.events.append("enter")
        return len(self.events)

    def __exit__(self, exc_type, exc, tb):
        self.events.append("exit")
        return False


@tf.function
def python_context_manager(x):
    rec = Recorder()
    with rec as depth:
        y = x * depth
    with rec:
        y += 1
    return y + len(rec.events)
