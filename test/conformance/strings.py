"""Python strings while tracing: f-strings and str.format with format specs, the methods of
str, and math and NumPy on Python numbers. tf.function formats them once, while tracing:
tf.print shows the text they made."""
import math

import numpy as np
import tensorflow as tf

LABELS = ["alpha", "beta", "gamma"]


@tf.function
def fstring_in_print(x):
    for k, name in enumerate(LABELS):
        tf.print(f"{k}: {name!r:>8}|{len(name):03d}|{k / 3:.2f}|{k * 1000:,}", x)
    return x


@tf.function
def fstring_of_argument(x):
    tf.print(f"x is {x}")
    tf.print(f"{'centered':^12}|{-3.5:+.1e}|{0.25:%}|{255:x}|{5:b}|{1e20:g}")
    return x


@tf.function
def format_method(x):
    template = "{} + {:.3f} = {total:>6}"
    line = template.format(1, 2.5, total=3.5)
    tf.print(line, "{0}{1}{0}".format("ab", "cd"), "{{literal}}".format())
    return x + len(line)


@tf.function
def string_methods(x):
    words = "  Hello, TensorFlow World  ".strip().lower().replace(",", "").split()
    title = " ".join(w.capitalize() for w in words)
    score = title.startswith("Hello") + title.endswith(("x", "World")) + title.find("Tensor")
    tf.print(title, words, "a-b-c".split("-"), title.count("o"), "123".isdigit())
    return x + score + len(words)


@tf.function
def strings_select_behaviour(x, mode="Scale"):
    if mode.lower() == "scale":
        return x * 2
    elif mode.upper().startswith("SH"):
        return x + 1
    return x


@tf.function
def math_on_python_numbers(x):
    radius = math.sqrt(16) + math.floor(2.7) + math.ceil(0.2)
    angle = math.pi / 4
    return x * radius + math.sin(angle) ** 2 + math.log(math.e) + math.pow(2, 10)


@tf.function
def numpy_constants(x):
    return x * np.pi + np.sqrt(2.0) + np.floor(2.5) + float(np.isnan(np.nan))


@tf.function
def fstring_format_spec_on_tensor(x):
    return f"{x:.2f}"


@tf.function
def math_domain_error(x):
    return x + math.sqrt(-1)
