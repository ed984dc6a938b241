"""tf.string tensors as TensorFlow's guides and API documentation use them: arguments,
results and constants, `+` and tf.strings.join, comparisons, length, upper and lower,
substr, as_string and to_number, tf.print, strings in staged control flow and in
TensorArrays, and the misuses TensorFlow refuses."""
import tensorflow as tf


@tf.function
def double(a):
    # The tf.function guide's example: traced again for strings, "a" -> "aa".
    return a + a


@tf.function
def greet(name):
    return tf.strings.join(["Hello, ", name, "!"])


@tf.function
def join_with_separator(a, b):
    return tf.strings.join([a, b], separator="-"), tf.strings.join([a, "x", b])


@tf.function
def compare(s):
    return s == "yes", s != "no", tf.equal(s, tf.constant("yes"))


@tf.function
def lengths(s):
    return tf.strings.length(s), tf.strings.length(s, unit="UTF8_CHAR")


@tf.function
def case_change(s):
    return tf.strings.upper(s), tf.strings.lower(s)


@tf.function
def substrings(s):
    return tf.strings.substr(s, 0, 2), tf.strings.substr(s, -2, 2), tf.strings.substr(s, 1, 100)


@tf.function
def substr_out_of_range(s):
    return tf.strings.substr(s, 10, 1)


@tf.function
def as_strings(x, n, b):
    return (tf.strings.as_string(x), tf.as_string(x, precision=2),
            tf.strings.as_string(x, scientific=True), tf.strings.as_string(x, shortest=True),
            tf.strings.as_string(n), tf.strings.as_string(n, width=5, fill="0"),
            tf.strings.as_string(b))


@tf.function
def to_numbers(s):
    return (tf.strings.to_number(s), tf.strings.to_number(s, out_type=tf.float64),
            tf.strings.to_number(tf.constant(" 12 "), out_type=tf.int32))


@tf.function
def to_number_invalid(s):
    return tf.strings.to_number(s, out_type=tf.int32)


@tf.function
def prints(s):
    tf.print("s:", s, tf.strings.length(s))
    return s


@tf.function
def string_in_staged_if(s, n):
    if n > 0:
        out = s + "+"
    else:
        out = "-" + s
    return out


@tf.function
def string_built_in_loop(n):
    s = tf.constant("")
    for i in tf.range(n):
        s = s + tf.strings.as_string(i)
    return s


@tf.function
def strings_in_tensor_array(words):
    ta = tf.TensorArray(tf.string, size=tf.shape(words)[0])
    for i in tf.range(tf.shape(words)[0]):
        ta = ta.write(i, tf.strings.upper(words[i]))
    return ta.stack()


@tf.function
def string_constants():
    return tf.constant("abc"), tf.constant(["x", "y"]), tf.fill([2], "z")


@tf.function
def select_strings(flags, a, b):
    return tf.where(flags, a, b), tf.reverse(a, [0]), tf.gather(b, [1, 0, 0])


@tf.function
def string_plus_number(s):
    return s + 1


@tf.function
def string_less_than(s):
    return s < "b"


@tf.function
def formats(x, s):
    # tf.strings.format's documentation: tensors as tf.print writes them.
    return (tf.strings.format("x={} s={}", (x, s)), tf.strings.format("{}", x, summarize=1),
            tf.strings.format("[%]", s, placeholder="%"), tf.strings.format("n = {}", [3]))


@tf.function
def format_python_scalar(x):
    # TensorFlow takes a tensor or a list: a Python int alone has no len().
    return tf.strings.format("n = {}", 3)


@tf.function
def format_counts_differ(x):
    return tf.strings.format("{} {}", x)
