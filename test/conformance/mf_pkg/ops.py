from .consts import OFFSET


def square(x):
    return x * x + OFFSET


def cube_if_positive(x):
    if x > 0:
        return x * x * x
    return x
