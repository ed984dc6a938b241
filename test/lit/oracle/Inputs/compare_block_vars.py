"""Compares the names agc would carry through each if/while/for with what TensorFlow's
AutoGraph carries, for every tf.function of a file.

usage: compare_block_vars.py AGC FILE

AutoGraph's side: tf.autograph.to_code() of each function; every ag__.if_stmt,
ag__.while_stmt and ag__.for_stmt call names the symbols it carries (and, for if_stmt,
how many are outputs). AutoGraph also inserts blocks and flags of its own for break,
continue and return (`if not_(continue_)`, do_return, retval_, break_): those blocks are
left out and those names dropped, since agc's analysis describes the user's blocks.

agc's side: `agc --emit=analysis`, its outputs and input-only lists.

Each block becomes `kind outputs | input-only` (an if) or `kind names` (a loop: AutoGraph
does not split them); the two multisets must be equal. Prints the blocks and
`N blocks match`, or the differences and exits 1.
"""
import collections
import importlib.util
import os
import re
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

FLAG = re.compile(r"^(do_return|retval_|break_|continue_)(_\d+)?$")
CALL = re.compile(r"ag__\.(if_stmt|while_stmt|for_stmt)\((.*)$")
NAMES = re.compile(r"\(((?:'[^']*'(?:, )?)*),?\)(?:, (\d+))?")


def autograph_blocks(module):
    blocks = []
    for name, fn in sorted(vars(module).items()):
        if not hasattr(fn, "python_function"):
            continue
        for line in tf.autograph.to_code(fn.python_function).splitlines():
            m = CALL.search(line)
            if not m:
                continue
            kind, args = m.group(1), m.group(2)
            if kind == "if_stmt" and re.match(r"ag__\.not_\((do_return|break_|continue_)", args):
                continue  # a block AutoGraph made for a flag
            tuples = list(NAMES.finditer(args))
            names = re.findall(r"'([^']*)'", tuples[-1].group(1))
            nouts = int(tuples[-1].group(2)) if tuples[-1].group(2) else len(names)
            outs = [n for n in names[:nouts] if not FLAG.match(n)]
            ins = [n for n in names[nouts:] if not FLAG.match(n)]
            blocks.append(canonical(kind.split("_")[0], outs, ins))
    return blocks


def canonical(kind, outs, ins):
    if kind == "if":
        return "if (%s | %s)" % (", ".join(sorted(outs)), ", ".join(sorted(ins)))
    return "%s (%s)" % (kind, ", ".join(sorted(outs + ins)))


def agc_blocks(agc, path):
    text = subprocess.run([agc, "--emit=analysis", path], check=True, capture_output=True,
                          text=True).stdout
    blocks, kind, outs = [], None, None
    for line in text.splitlines():
        m = re.match(r"  (if|elif|while|for) @", line)
        if m:
            kind = "if" if m.group(1) == "elif" else m.group(1)
        m = re.match(r"    (outputs|input-only): \((.*)\)$", line)
        if m:
            names = [n for n in m.group(2).split(", ") if n]
            if m.group(1) == "outputs":
                outs = names
            else:
                blocks.append(canonical(kind, outs, names))
    return blocks


def main():
    agc, path = sys.argv[1], sys.argv[2]
    spec = importlib.util.spec_from_file_location("example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    theirs = collections.Counter(autograph_blocks(module))
    ours = collections.Counter(agc_blocks(agc, path))
    for block in sorted(ours.elements()):
        print(block)
    if theirs != ours:
        print("AutoGraph only:", sorted((theirs - ours).elements()))
        print("agc only:", sorted((ours - theirs).elements()))
        sys.exit(1)
    print("%d blocks match" % sum(ours.values()))


if __name__ == "__main__":
    main()
