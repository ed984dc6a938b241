"""Imports an example module under real TensorFlow and calls its zero-argument functions."""
import importlib.util
import inspect
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

print("tensorflow", tf.__version__)
spec = importlib.util.spec_from_file_location("seed", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
for name, fn in vars(module).items():
    if hasattr(fn, "python_function") and not inspect.signature(fn.python_function).parameters:
        print(name, fn().numpy())
