"""Writes the functions of agc that a compile runs: the symbol ordering file with which
tools/meson.build links agc (lld's --symbol-ordering-file), so that the code a compile
needs lies together at the start of the executable's text instead of spread over its
55 MB.

Why: agc links Debian's static LLVM and MLIR libraries. A compile runs some 12 MB of
their code, scattered over the whole text; each first touch of a part of it is a page
fault, which maps 64 KiB around it. A compile of the tanh loop took 672 such faults, a
third of its 28 ms in the kernel. Laid out in this order, 203 faults, 5 ms less (README
"Performance", compile latency).

How: runs agc (linked without the order) under valgrind's callgrind on the programs of
layout_training.py and on examples/tanh_loop.py, and lists the functions of agc's own
executable that callgrind saw run, in the order of its output (which is not the order
they ran in: it need not be, as a compile's fault-around maps the whole of so packed a
range whatever its order). Exact and repeatable (callgrind counts instructions, not
time); no sampling.

usage: order_functions.py --valgrind VALGRIND --agc AGC --source-root DIR -o OUT
"""
import argparse
import os
import subprocess
import sys
import tempfile


def training_runs(root, work):
    """agc's arguments for each training compile: the programs users start from."""
    return [
        ["compile", os.path.join(root, "examples", "tanh_loop.py"),
         "-o", os.path.join(work, "tanh_loop.o")],
        ["compile", os.path.join(root, "tools", "agc", "layout_training.py"),
         "-o", os.path.join(work, "layout_training.o")],
        ["to-code", os.path.join(root, "examples", "tanh_loop.py")],
    ]


def executed_functions(profile, executable):
    """The mangled names of `executable`'s functions in callgrind's `profile`. With
    --compress-strings=no each fn= line names its function; a recursive function's
    deeper levels are NAME'2, NAME'3 (the same symbol)."""
    names, current = [], None
    with open(profile, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("ob="):
                current = os.path.realpath(line[3:].strip())
            elif line.startswith("fn=") and current == executable:
                name = line[3:].strip().split("'")[0]
                if not name.startswith("0x"):  # a function without a symbol
                    names.append(name)
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--valgrind", required=True)
    ap.add_argument("--agc", required=True, help="agc linked without an order")
    ap.add_argument("--source-root", required=True)
    ap.add_argument("-o", "--output", required=True)
    opts = ap.parse_args()
    executable = os.path.realpath(opts.agc)
    order, seen = [], set()
    with tempfile.TemporaryDirectory() as work:
        for i, args in enumerate(training_runs(opts.source_root, work)):
            profile = os.path.join(work, f"callgrind.{i}")
            cmd = [opts.valgrind, "--tool=callgrind", "--demangle=no", "--compress-strings=no",
                   "--compress-pos=no", "--dump-instr=no", f"--callgrind-out-file={profile}",
                   opts.agc] + args
            run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 text=True)
            if run.returncode != 0:
                sys.stderr.write(run.stderr[-4000:])
                sys.exit(f"order_functions.py: {' '.join(cmd)} exited with {run.returncode}")
            for name in executed_functions(profile, executable):
                if name not in seen:
                    seen.add(name)
                    order.append(name)
    if len(order) < 1000:  # a compile runs some 20,000: callgrind saw the wrong file
        sys.exit(f"order_functions.py: only {len(order)} functions of {executable} in "
                 "callgrind's output (is it stripped of its symbols?)")
    tmp = opts.output + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(order) + "\n")
    os.replace(tmp, opts.output)


if __name__ == "__main__":
    main()
