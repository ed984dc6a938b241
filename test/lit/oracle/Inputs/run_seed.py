"""Imports an example module under real TensorFlow and calls its tf.functions.

usage: run_seed.py FILE              call every tf.function that takes no argument
       run_seed.py FILE FUNC ARGS    call FUNC(*ARGS), ARGS a JSON list
Prints `NAME VALUE` per call, after the TensorFlow version.
"""
import importlib.util
import inspect
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

print("tensorflow", tf.__version__)
spec = importlib.util.spec_from_file_location("seed", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
if len(sys.argv) > 2:
    calls = [(sys.argv[2], json.loads(sys.argv[3]))]
else:
    calls = [(name, []) for name, fn in vars(module).items()
             if hasattr(fn, "python_function")
             and not inspect.signature(fn.python_function).parameters]
for name, args in calls:
    print(name, getattr(module, name)(*args).numpy())
