"""Writes a Python module that uses every op of the dialect issue's list on every dtype it
accepts, one @tf.function each, with an input signature; and lists their names.

    op_coverage.py write MODULE.py NAMES.txt   writes both
    op_coverage.py check NAMES.txt IR.ll        every function has a C entry point in IR.ll
    op_coverage.py trace MODULE.py NAMES.txt   every function traces under TensorFlow
"""
import sys

FLOATS = ["float32", "float64"]
INTS = ["int32", "int64"]
NUMBERS = FLOATS + INTS
ALL = NUMBERS + ["bool"]

functions = []  # (name, signature dtypes and shapes, body lines)


def fn(name, params, body):
    functions.append((name, params, body))


def spec(dtype, shape):
    return f"tf.TensorSpec({shape}, tf.{dtype})"


# Creation, by the dtype of the result.
for d in NUMBERS:
    fn(f"constant_{d}", [], [f"return tf.constant([[1, 2], [3, 4]], dtype=tf.{d})"])
    fn(f"zeros_{d}", [], [f"return tf.zeros([2, 3], dtype=tf.{d})"])
    fn(f"ones_{d}", [], [f"return tf.ones([2, 3], dtype=tf.{d})"])
    fn(f"fill_{d}", [("n", "int32", [])], [f"return tf.fill([n, 2], tf.constant(7, tf.{d}))"])
    fn(f"zeros_like_{d}", [("x", d, [None, 3])], ["return tf.zeros_like(x)"])
    fn(f"ones_like_{d}", [("x", d, [None, 3])], ["return tf.ones_like(x)"])
    fn(f"eye_{d}", [], [f"return tf.eye(3, dtype=tf.{d})"])
    fn(f"range_{d}", [("n", d, [])], [f"return tf.range(tf.constant(1, tf.{d}), n, tf.constant(2, tf.{d}))"])
fn("constant_bool", [], ["return tf.constant([True, False])"])
fn("zeros_bool", [], ["return tf.zeros([2], dtype=tf.bool)"])
for a in ALL:
    for b in ALL:
        if a != b:
            fn(f"cast_{a}_to_{b}", [("x", a, [3])], [f"return tf.cast(x, tf.{b})"])

# Operators and their functions.
OPERATORS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//",
             "mod": "%", "pow": "**"}
for d in NUMBERS:
    for name, op in OPERATORS.items():
        fn(f"op_{name}_{d}", [("x", d, [2, 3]), ("y", d, [3])], [f"return x {op} y"])
        fn(f"op_{name}_scalar_{d}", [("x", d, [2, 3])], [f"return x {op} 2"])
    fn(f"op_neg_{d}", [("x", d, [None])], ["return -x"])
    for name in ["maximum", "minimum", "pow", "math.floormod", "math.floordiv"]:
        fn(f"{name.replace('.', '_')}_{d}", [("x", d, [2, 3]), ("y", d, [2, 1])],
           [f"return tf.{name}(x, y)"])
    fn(f"abs_{d}", [("x", d, [4])], ["return tf.abs(x)"])
    fn(f"square_{d}", [("x", d, [4])], ["return tf.square(x)"])
    fn(f"relu_{d}", [("x", d, [4])], ["return tf.nn.relu(x)"])
    fn(f"clip_{d}", [("x", d, [4])], ["return tf.clip_by_value(x, 0, 3)"])
for d in FLOATS:
    for name in ["exp", "math.log", "sqrt", "tanh", "sigmoid", "sin", "cos", "math.atan",
                 "math.sinh", "math.erfc"]:
        fn(f"{name.replace('.', '_')}_{d}", [("x", d, [4])], [f"return tf.{name}(x)"])
    fn(f"softmax_{d}", [("x", d, [2, 5])], ["return tf.nn.softmax(x)"])
for d in ALL:
    for name in ["equal", "not_equal"]:
        fn(f"{name}_{d}", [("x", d, [3]), ("y", d, [3])], [f"return tf.{name}(x, y)"])
    fn(f"op_eq_{d}", [("x", d, [3]), ("y", d, [1])], ["return x == y"])
    fn(f"where_{d}", [("c", "bool", [3]), ("x", d, [3]), ("y", d, [3])],
       ["return tf.where(c, x, y)"])
for d in NUMBERS:
    for name, op in [("less", "<"), ("less_equal", "<="), ("greater", ">"),
                     ("greater_equal", ">=")]:
        fn(f"{name}_{d}", [("x", d, [3]), ("y", d, [3])], [f"return tf.{name}(x, y)"])
        fn(f"op_{name}_{d}", [("x", d, [2, 3])], [f"return x {op} 1"])
for name in ["logical_and", "logical_or"]:
    fn(f"{name}_bool", [("x", "bool", [3]), ("y", "bool", [3])], [f"return tf.{name}(x, y)"])
fn("logical_not_bool", [("x", "bool", [3])], ["return tf.logical_not(x)"])

# Reductions.
for d in NUMBERS:
    for name in ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"]:
        fn(f"{name}_{d}", [("x", d, [2, 3])], [f"return tf.{name}(x)"])
        fn(f"{name}_axis_{d}", [("x", d, [2, None])], [f"return tf.{name}(x, axis=1, keepdims=True)"])
    for name in ["argmax", "argmin"]:
        fn(f"{name}_{d}", [("x", d, [2, 3])], [f"return tf.{name}(x, axis=1)"])
for name in ["reduce_any", "reduce_all"]:
    fn(f"{name}_bool", [("x", "bool", [2, 3])], [f"return tf.{name}(x, axis=0)"])

# Linear algebra and shapes.
for d in NUMBERS:
    fn(f"matmul_{d}", [("x", d, [2, 3]), ("y", d, [3, 4])], ["return tf.matmul(x, y)"])
    fn(f"matmul_t_{d}", [("x", d, [3, 2]), ("y", d, [4, 3])],
       ["return tf.matmul(x, y, transpose_a=True, transpose_b=True)"])
    fn(f"op_matmul_{d}", [("x", d, [2, 2, 3]), ("y", d, [2, 3, 4])], ["return x @ y"])
for d in ALL:
    fn(f"transpose_{d}", [("x", d, [2, 3, 4])], ["return tf.transpose(x, [2, 0, 1])"])
    fn(f"reshape_{d}", [("x", d, [2, 6])], ["return tf.reshape(x, [3, -1])"])
    fn(f"reshape_dynamic_{d}", [("x", d, [None, 6])], ["return tf.reshape(x, [-1, 2])"])
    fn(f"concat_{d}", [("x", d, [2, 3]), ("y", d, [1, 3])], ["return tf.concat([x, y], axis=0)"])
    fn(f"stack_{d}", [("x", d, [3]), ("y", d, [3])], ["return tf.stack([x, y], axis=1)"])
    fn(f"shape_{d}", [("x", d, [None, 3])], ["return tf.shape(x)"])
    fn(f"size_{d}", [("x", d, [None, 3])], ["return tf.size(x)"])
    fn(f"static_shape_{d}", [("x", d, [4, 3])], ["return tf.zeros([x.shape[1]])"])
    fn(f"index_{d}", [("x", d, [4, 3]), ("i", "int32", [])], ["return x[i], x[-1], x[1:3], x[:, 2], x[..., None]"])
    fn(f"set_shape_{d}", [("x", d, [None])], ["x.set_shape([3])", "return x"])

# tf.print, tf.TensorArray, tf.Variable.
fn("print_mixed", [("x", "float32", [2, 2]), ("n", "int32", [])],
   ["tf.print('x:', x, 'n =', n, 3, sep='|', end='.\\n')",
    "tf.print(n, output_stream=sys.stdout)", "return n"])
for d in NUMBERS:
    fn(f"tensor_array_{d}", [("x", d, [3])],
       [f"ta = tf.TensorArray(tf.{d}, size=4)",
        "for i in tf.range(4):",
        "    ta = ta.write(i, x)",
        "return ta.stack(), ta.read(2), ta.size()"])
    fn(f"tensor_array_dynamic_{d}", [("x", d, [3]), ("n", "int32", [])],
       [f"ta = tf.TensorArray(tf.{d}, size=0, dynamic_size=True)",
        "for i in tf.range(n):",
        "    ta = ta.write(i, x)",
        "return ta.stack()"])
    fn(f"variable_{d}", [("x", d, [])],
       [f"var_{d}.assign(x)", f"var_{d}.assign_add(x)", f"var_{d}.assign_sub(1)",
        f"return var_{d}.read_value() + var_{d}"])


def write(module_path, names_path):
    with open(module_path, "w") as out:
        out.write("import sys\nimport tensorflow as tf\n\n")
        for d in NUMBERS:
            out.write(f"var_{d} = tf.Variable(tf.constant(1, tf.{d}))\n")
        for name, params, body in functions:
            specs = ", ".join(spec(d, s) for _, d, s in params)
            out.write(f"\n\n@tf.function(input_signature=[{specs}])\n")
            out.write(f"def {name}({', '.join(p for p, _, _ in params)}):\n")
            for line in body:
                out.write(f"    {line}\n")
    with open(names_path, "w") as out:
        out.write("\n".join(name for name, _, _ in functions) + "\n")


def check(names_path, ir_path):
    names = open(names_path).read().split()
    ir = open(ir_path).read()
    missing = [n for n in names if f"define void @_mlir_ciface_{n}(" not in ir]
    for n in missing:
        print(f"missing: {n}")
    print(f"{len(names) - len(missing)} of {len(names)} functions lowered to LLVM IR")
    return 1 if missing or not names else 0


def trace(module_path, names_path):
    import importlib.util
    spec_ = importlib.util.spec_from_file_location("coverage", module_path)
    module = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(module)
    failed = 0
    names = open(names_path).read().split()
    for n in names:
        try:
            getattr(module, n).get_concrete_function()
        except Exception as e:  # noqa: BLE001 - report any refusal
            failed += 1
            print(f"TensorFlow refuses {n}: {type(e).__name__}: {str(e).splitlines()[0]}")
    print(f"{len(names) - failed} of {len(names)} functions trace under TensorFlow")
    return 1 if failed else 0


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "write":
        write(sys.argv[2], sys.argv[3])
    elif command == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(trace(sys.argv[2], sys.argv[3]))
