"""Copies the fuzz targets' seed corpus into a directory: the examples, the conformance
programs and every Python input of the lit tests, numbered (names repeat across folders).

usage: seed_corpus.py SRC_ROOT OUT_DIR
"""
import glob
import os
import shutil
import sys

root, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
patterns = ("examples/*.py", "test/conformance/*.py", "test/lit/*/Inputs/*.py")
files = sorted(f for p in patterns for f in glob.glob(os.path.join(root, p)))
for i, f in enumerate(files):
    shutil.copy(f, os.path.join(out, "seed-%03d.py" % i))
print("%d seed inputs" % len(files))
