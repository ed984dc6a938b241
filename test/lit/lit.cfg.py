# lit configuration for agc's IR and CLI tests. Each test is a file whose RUN: lines call
# agc and pipe into FileCheck; `meson test` runs lit with --param site=<build>/lit.site.cfg.py.
import glob
import os
import sys

import lit.formats

config.name = "agc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py", ".test", ".mlir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "expect_exit.py", "Inputs"]

site = lit_config.params.get("site")
if not site:
    lit_config.fatal("run through `meson test` (it passes --param site=...)")
exec(open(site).read())

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(agc_test_out, "lit-out")
# LLVM 22's lit, FileCheck and not come first, ahead of any older LLVM on PATH.
config.environment["PATH"] = os.pathsep.join(
    [agc_bin_dir, llvm_bin_dir, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%agc", os.path.join(agc_bin_dir, "agc")))
config.substitutions.append(("%ag_opt", os.path.join(agc_bin_dir, "ag-opt")))
config.substitutions.append(("%fuzz_dir", agc_fuzz_dir))
config.substitutions.append(("%src_root", agc_src_root))
config.substitutions.append(("%test_out", agc_test_out))
config.substitutions.append(("%python", os.path.join(agc_src_root, ".venv", "bin", "python")))
config.substitutions.append(
    ("%expect_exit", '"%s" "%s"' % (sys.executable, os.path.join(agc_test_src, "expect_exit.py"))))
config.substitutions.append(("%pyexe", '"%s"' % sys.executable))
# Programs that link agc-compiled objects: the compilers meson uses, agc's runtime.
config.substitutions.append(("%cc", c_compiler))
config.substitutions.append(("%cxx", cxx_compiler))
config.substitutions.append(("%runtime_inc", runtime_inc))
# The runtime, and LLVM's OpenMP runtime that the parallel regions of compiled code call.
config.substitutions.append(("%runtime_lib", runtime_lib + " -lomp -lpthread"))
# The shared runtime beside it (what CMake's agc_compile and pkg-config link by default).
config.substitutions.append(
    ("%runtime_so", os.path.join(os.path.dirname(runtime_lib), "libagc-runtime.so")))
import shutil  # noqa: E402
if agc_sanitize != "none":
    config.available_features.add("sanitized")
    lit_config.note("a sanitizer build (%s): the valgrind runs are UNSUPPORTED" % agc_sanitize)
elif shutil.which("valgrind"):
    config.available_features.add("valgrind")
else:
    lit_config.note("valgrind not installed: the memory-checked runs are UNSUPPORTED")

# test/lit/install: this build installed into a staging directory (meson install
# --destdir), the example project built against it with CMake and with meson. A
# sanitizer build's runtime needs the sanitizer's own runtime in every program, which the
# example's build files do not ask for.
stage = "%t/stage" + agc_install_prefix
config.substitutions.append(("%build_root", agc_build_root))
config.substitutions.append(("%staged_prefix", stage))
config.substitutions.append(("%staged_libdir", stage + "/" + agc_install_libdir))
config.substitutions.append(("%staged_datadir", stage + "/" + agc_install_datadir))
if agc_sanitize != "none":
    lit_config.note("a sanitizer build (%s): the install and build-system test is UNSUPPORTED"
                    % agc_sanitize)
elif not shutil.which("cmake"):
    lit_config.note("cmake not installed (tools/setup.sh installs it): the install and "
                    "build-system test is UNSUPPORTED")
else:
    config.available_features.add("install-and-cmake")

# Graphviz's dot, which draws --emit=svg (tools/setup.sh installs it).
if shutil.which("dot"):
    config.available_features.add("graphviz")
else:
    lit_config.note("Graphviz's dot not installed: the --emit=svg test is UNSUPPORTED")

# gdb, where it can run a program here (ptrace allowed): the -g test breaks on a line.
import subprocess  # noqa: E402
gdb = shutil.which("gdb")
if gdb and "exited normally" in subprocess.run(
        [gdb, "-batch", "-nx", "-ex", "run", "--args", "/bin/true"], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True).stdout:
    config.available_features.add("gdb")
else:
    lit_config.note("gdb not installed or cannot run programs here: the debugger test is "
                    "UNSUPPORTED")

# agc linked against LLVM's and MLIR's static libraries (-Dstatic_llvm, the default).
if agc_static_llvm:
    config.available_features.add("static-llvm")
else:
    lit_config.note("agc links libLLVM.so and libMLIR.so (-Dstatic_llvm=false): its link test is UNSUPPORTED")

# agc linked with its functions in the order a compile runs them (-Dorder_functions).
if agc_function_order:
    config.available_features.add("function-order")
    config.substitutions.append(("%function_order", agc_function_order))
else:
    lit_config.note("agc linked without a function order (-Dorder_functions: no lld, no "
                    "valgrind, a sanitizer or -Dstatic_llvm=false): its layout test is "
                    "UNSUPPORTED")

# NVIDIA's PTX assembler (the CUDA toolkit), which checks the PTX of --target=nvptx.
ptxas = shutil.which("ptxas") or os.path.join(
    os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found (CUDA toolkit; CUDA_HOME): the PTX assembly checks are UNSUPPORTED")
# The toolkit whose ptxas and fatbinary make --target=nvptx's fat binaries.
toolkit = os.path.dirname(os.path.dirname(os.path.realpath(ptxas)))
if os.access(ptxas, os.X_OK) and os.access(os.path.join(toolkit, "bin", "fatbinary"), os.X_OK):
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_toolkit", toolkit))
else:
    lit_config.note("no CUDA toolkit with ptxas and fatbinary: the fat binary checks are UNSUPPORTED")
# NVIDIA's cuobjdump, which lists the cubins and PTX of an object's .nv_fatbin section:
# the toolkit's, or the wheel tools/setup.sh installs into .venv (nvidia-cuda-cuobjdump).
cuobjdump = [c for c in [os.path.join(toolkit, "bin", "cuobjdump")] + sorted(glob.glob(
    os.path.join(agc_src_root, ".venv", "lib", "python3*", "site-packages", "nvidia", "cu*",
                 "bin", "cuobjdump"))) if os.access(c, os.X_OK)]
if cuobjdump:
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump[0]))
else:
    lit_config.note("no cuobjdump (CUDA toolkit, or .venv's nvidia-cuda-cuobjdump from tools/setup.sh): the listing of an object's kernels is UNSUPPORTED")

# A usable NVIDIA GPU (the CUDA driver, libcuda.so.1, with a device): the GPU end-to-end
# suite (gpu/conformance-gpu.test) runs on it. Asked of the driver itself, as agc's
# runtime asks it (AGC_CUDA_DRIVER names another file, as for the runtime).
def gpu_unusable():
    import ctypes
    driver = os.environ.get("AGC_CUDA_DRIVER", "libcuda.so.1")
    try:
        cuda = ctypes.CDLL(driver)
    except OSError as e:
        return "no CUDA driver (%s)" % e
    if cuda.cuInit(0) != 0:
        return "the CUDA driver's cuInit failed (no device, or the driver cannot start)"
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        return "the CUDA driver reports no device"
    return None


gpu_why = gpu_unusable()
if gpu_why is None:
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("no usable GPU here (%s): the GPU end-to-end suite is UNSUPPORTED" % gpu_why)

# The TensorFlow oracle lives in the virtualenv tools/setup.sh made; AGC_NO_ORACLE=1 skips
# its installation, and then the oracle tests say so.
if glob.glob(os.path.join(agc_src_root, ".venv", "lib", "python3*", "site-packages", "tensorflow")):
    config.available_features.add("tf-oracle")
else:
    lit_config.note("TensorFlow oracle not installed (.venv): tests that need it are UNSUPPORTED")

# Tests of x86-64's own registers (the MXCSR's flush-to-zero mode) run on x86-64 hosts.
import platform  # noqa: E402
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
else:
    lit_config.note("not an x86-64 host: the tests of its floating-point mode are UNSUPPORTED")
