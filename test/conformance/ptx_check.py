"""--target=nvptx over the conformance corpus: every function agc compiles for the CPU
also compiles for NVIDIA GPUs, and every kernel's PTX passes ptxas for every chip.

    python ptx_check.py AGC [--only THEME] [--jobs N] [--gpu-arch sm_80,sm_90] [--verbose]
    python ptx_check.py --assemble FILE.ptx


For each function and each of its cases' types (--signature and -D as to-code takes
them: a function's cases in float32 and in bfloat16 are two compiles), `agc compile
--emit=llvm-dialect` says whether the CPU path compiles it (and its output must have no
llvm.alloca outside a function's entry block that -ag-stack-scopes left without a
scope: each run of one takes more stack, and in a loop overflows it); if it does, `agc compile
--target=nvptx --emit=ptx` must too, each PTX module it prints (after its `// agc:
kernel module @NAME for CHIP` line) is assembled by ptxas for that chip, and, for the
first case's types, `agc compile --target=nvptx` and `--target=cpu,nvptx` must write the
object and its header; where ptxas's toolkit has fatbinary, the objects carry fat
binaries, and NVIDIA's cuobjdump (the toolkit's, or .venv's nvidia-cuda-cuobjdump) must
list one cubin per PTX module in each. Exits 1 on any failure, and 0 with a printed reason, having checked nothing,
where ptxas is not installed (the CUDA toolkit: /usr/local/cuda/bin, or on PATH).
--assemble does the last step for one file of `agc --emit=ptx` output.
"""
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

MARKER = re.compile(r"^// agc: kernel module @(\S+) for (\S+)$", re.M)


def find_ptxas():
    found = shutil.which("ptxas")
    if found:
        return found
    cuda = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    return cuda if os.access(cuda, os.X_OK) else None


def find_toolkit(ptxas):
    """The CUDA toolkit ptxas belongs to, where it has fatbinary (objects then carry fat
    binaries), else None (objects carry PTX)."""
    toolkit = os.path.dirname(os.path.dirname(os.path.realpath(ptxas)))
    return toolkit if os.access(os.path.join(toolkit, "bin", "fatbinary"), os.X_OK) else None


def find_cuobjdump(toolkit):
    """NVIDIA's cuobjdump: the toolkit's, or the wheel tools/setup.sh installs in .venv."""
    root = os.path.dirname(os.path.dirname(HERE))
    candidates = ([os.path.join(toolkit, "bin", "cuobjdump")] if toolkit else []) + sorted(
        glob.glob(os.path.join(root, ".venv", "lib", "python3*", "site-packages", "nvidia",
                               "cu*", "bin", "cuobjdump")))
    return next((c for c in candidates if os.access(c, os.X_OK)), None)


def cubins(cuobjdump, obj):
    """How many cubins cuobjdump lists in `obj`'s .nv_fatbin section."""
    proc = subprocess.run([cuobjdump, "--list-elf", obj], capture_output=True, text=True,
                          timeout=300)
    return sum(1 for line in proc.stdout.splitlines() if line.startswith("ELF file"))


def assemble(ptxas, text, work, stem):
    """Assembles each PTX module of `text` (agc --emit=ptx output) for its chip, in files
    named after `stem` in `work`: (modules assembled, problem or None)."""
    marks = list(MARKER.finditer(text))
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        ptx = os.path.join(work, f"{stem}.{i}.ptx")
        with open(ptx, "w") as f:
            f.write(text[mark.end():end].lstrip("\n"))
        proc = subprocess.run([ptxas, f"-arch={mark.group(2)}", ptx, "-o", os.devnull],
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            return i, (f"ptxas -arch={mark.group(2)} failed on @{mark.group(1)}: "
                       f"{proc.stderr.strip()[-400:]}")
    return len(marks), None


BLOCK = re.compile(r"^\s*\^bb\d+", re.M)


def unscoped_alloca(llvm_dialect):
    """The first block label of `llvm_dialect` (agc's --emit=llvm-dialect) whose block
    has an llvm.alloca and no llvm.intr.stacksave, or None. The entry block of each
    function (before its first label) is not looked at."""
    labels = list(BLOCK.finditer(llvm_dialect))
    for i, label in enumerate(labels):
        end = labels[i + 1].start() if i + 1 < len(labels) else len(llvm_dialect)
        body = llvm_dialect[label.end():end]
        # A block ends at the next label, or at its function's end.
        body = body.split("\n  }", 1)[0]
        if "llvm.alloca" in body and "llvm.intr.stacksave" not in body:
            return label.group(0).strip()
    return None


def options_for(case):
    from run import decorator_text, to_code_options
    path = os.path.join(HERE, case["theme"] + ".py")
    signed = "input_signature" not in decorator_text(path, case["func"])
    return path, ["--function", case["func"]] + to_code_options(case, signed)


def check(agc, ptxas, toolkit, cuobjdump, case, path, options, archs, work, variant):
    """(function, kernels assembled, problem or None); kernels is None where the CPU
    path refuses the function (nothing to compare). Variant 0 (the function's first
    case's types) writes the objects too: with a toolkit, they carry fat binaries, and
    cuobjdump (where found) must list one cubin per PTX module."""
    name = f"{case['theme']}:{case['func']}"
    if variant:
        name += " " + " ".join(o for o in options if o != "--function" and o != case["func"])
    cpu = subprocess.run([agc, "compile", "--emit=llvm-dialect", path, "-o", "-"] + options,
                         capture_output=True, text=True, timeout=300)
    if cpu.returncode != 0:
        return name, None, None
    block = unscoped_alloca(cpu.stdout)
    if block:
        return name, 0, (f"the CPU's LLVM dialect has an llvm.alloca outside its function's "
                         f"entry block, in {block}, with no stack scope (-ag-stack-scopes)")
    gpu = subprocess.run([agc, "compile", "--target=nvptx", "--emit=ptx", "--gpu-arch", archs,
                          path] + options, capture_output=True, text=True, timeout=300)
    if gpu.returncode != 0:
        return name, 0, f"--target=nvptx exited {gpu.returncode}: {gpu.stderr.strip()[-400:]}"
    count, problem = assemble(ptxas, gpu.stdout, work, f"{case['theme']}.{case['func']}.{variant}")
    if problem or variant:
        return name, count, problem
    # The objects: host code launching the kernels (with their CPU versions too), the
    # kernels embedded.
    stem = os.path.join(work, f"{case['theme']}.{case['func']}")
    for target, suffix in (("nvptx", ""), ("cpu,nvptx", ".both")):
        obj = subprocess.run([agc, "compile", f"--target={target}", "--gpu-arch", archs,
                              f"--cuda-toolkit={toolkit or 'none'}", path,
                              "-o", stem + suffix + ".o", "--header", stem + suffix + ".h"]
                             + options, capture_output=True, text=True, timeout=300)
        if obj.returncode != 0:
            return name, count, (f"--target={target} object: exited {obj.returncode}: "
                                 f"{obj.stderr.strip()[-400:]}")
        if toolkit and cuobjdump:
            listed = cubins(cuobjdump, stem + suffix + ".o")
            if listed != count:
                return name, count, (f"--target={target} object: cuobjdump --list-elf lists "
                                     f"{listed} cubins, not {count}")
    return name, count, None


def assemble_file(path):
    ptxas = find_ptxas()
    if not ptxas:
        print("ptx_check: SKIPPED: ptxas not found; no PTX was checked")
        return 0
    with tempfile.TemporaryDirectory() as work:
        count, problem = assemble(ptxas, open(path).read(), work, "module")
    if problem:
        print(f"FAIL {path}: {problem}")
        return 1
    print(f"ptx_check: {count} PTX modules passed ptxas")
    return 0


def main():
    argv = sys.argv[1:]
    if argv[0] == "--assemble":
        return assemble_file(argv[1])
    from run import load_cases
    agc = os.path.abspath(argv.pop(0))
    only, jobs, archs, verbose = None, 2, "sm_80,sm_90", False
    while argv:
        a = argv.pop(0)
        if a == "--only":
            only = argv.pop(0)
        elif a == "--jobs":
            jobs = int(argv.pop(0))
        elif a == "--gpu-arch":
            archs = argv.pop(0)
        elif a == "--verbose":
            verbose = True
    ptxas = find_ptxas()
    if not ptxas:
        print("ptx_check: SKIPPED: ptxas not found (install the CUDA toolkit, or set "
              "CUDA_HOME); no PTX was checked")
        return 0
    themes = sorted(f[:-6] for f in os.listdir(HERE)
                    if f.endswith(".cases") and os.path.exists(os.path.join(HERE, f[:-6] + ".py")))
    if only:
        themes = [t for t in themes if t == only]
    # Each signature of a function its own variant number: its PTX files are named after
    # it, and two signatures assembled at once under one name overwrote each other's file
    # while ptxas read it (a "syntax error" in a fresh clone's CI run).
    variants, jobs_args, seen = {}, [], set()
    for theme in themes:
        for case in load_cases(theme):
            # The options are read here, on one thread: Python 3.11's ast.parse is not
            # safe on several ("AST constructor recursion depth mismatch").
            path, options = options_for(case)
            key = (theme, case["func"])
            if (key, tuple(options)) in seen:
                continue
            seen.add((key, tuple(options)))
            jobs_args.append((case, path, options, variants.get(key, 0)))
            variants[key] = variants.get(key, 0) + 1
    with tempfile.TemporaryDirectory() as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        toolkit = find_toolkit(ptxas)
        cuobjdump = find_cuobjdump(toolkit)
        results = list(pool.map(
            lambda a: check(agc, ptxas, toolkit, cuobjdump, *a[:3], archs, work, a[3]), jobs_args))
    compiled = [r for r in results if r[1] is not None]
    failed = [r for r in compiled if r[2]]
    kernels = sum(r[1] for r in compiled if not r[2])
    with_kernels = sum(1 for r in compiled if not r[2] and r[1])
    for name, _, problem in failed:
        print(f"FAIL {name}: {problem}")
    if verbose:
        for name, count, problem in compiled:
            if not problem:
                print(f"ok   {name}: {count} PTX module(s)")
    listing = (" (fat binaries: cuobjdump lists every module's cubins)" if toolkit and cuobjdump
               else " (fat binaries, not listed: no cuobjdump)" if toolkit
               else " (PTX only: no fatbinary beside ptxas)")
    print(f"ptx_check: {len(variants)} functions ({len(results)} with their cases' types), "
          f"{len(compiled)} compiled for the CPU; for "
          f"nvptx ({archs}): {len(compiled) - len(failed)} compiled, {with_kernels} with "
          f"kernels, {kernels} PTX modules passed ptxas, objects written"
          f"{listing}, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
