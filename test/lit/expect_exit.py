"""Runs a command, passes its output through, and succeeds only if it exits with CODE.

Usage (in lit RUN lines, as %expect_exit): %expect_exit CODE cmd args...
lit's `not` only says "non-zero"; agc's exit status is part of its contract (DESIGN.md §4).
"""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:])
if proc.returncode != want:
    sys.stderr.write(f"expect_exit: exit status {proc.returncode}, expected {want}: "
                     f"{' '.join(sys.argv[2:])}\n")
    sys.exit(1)
