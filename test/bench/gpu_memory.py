"""The GPU's memory as agc's nvptx objects use it: what the CUDA driver says of managed
memory on this machine, and the rates of copies between device memory (cuMemAlloc) and
managed memory (cuMemAllocManaged, where agc's host code keeps its buffers): resident on
the GPU, or just written by the host. tools/gpu-check.sh runs it on a lent GPU.

    python3 test/bench/gpu_memory.py

Without a usable GPU it prints why and exits 0, having measured nothing."""
import ctypes
import os
import sys
import time

ATTRIBUTES = ((83, "managed memory"), (89, "concurrent managed access"),
              (88, "pageable memory access"), (100, "pageable access uses host page tables"),
              (101, "direct managed access from host"), (86, "host native atomics"))
BYTES = 64 << 20


def main():
    try:
        cu = ctypes.CDLL(os.environ.get("AGC_CUDA_DRIVER") or "libcuda.so.1")
    except OSError as e:
        print(f"gpu_memory: SKIPPED: no CUDA driver ({e})")
        return 0
    device, context, count = ctypes.c_int(), ctypes.c_void_p(), ctypes.c_int(0)
    if (cu.cuInit(0) or cu.cuDeviceGetCount(ctypes.byref(count)) or not count.value
            or cu.cuDeviceGet(ctypes.byref(device), 0)
            or cu.cuDevicePrimaryCtxRetain(ctypes.byref(context), device)
            or cu.cuCtxSetCurrent(context)):
        print("gpu_memory: SKIPPED: the CUDA driver finds no usable device")
        return 0
    for code, name in ATTRIBUTES:
        value = ctypes.c_int(-1)
        cu.cuDeviceGetAttribute(ctypes.byref(value), code, device)
        print(f"attribute {code} ({name}): {value.value}")

    def alloc(managed):
        p = ctypes.c_uint64()
        size = ctypes.c_size_t(BYTES)
        error = (cu.cuMemAllocManaged(ctypes.byref(p), size, 1) if managed
                 else cu.cuMemAlloc_v2(ctypes.byref(p), size))
        if error:
            raise RuntimeError(f"allocation failed: CUDA error {error}")
        return p.value

    def synchronize():
        if cu.cuCtxSynchronize():
            raise RuntimeError("cuCtxSynchronize failed")

    def fill_on_gpu(p):  # a memset runs on the GPU: managed pages move there
        cu.cuMemsetD32_v2(ctypes.c_uint64(p), 1, ctypes.c_size_t(BYTES // 4))
        synchronize()

    def rate(what, dst, src, before=None, reps=5):
        times = []
        for _ in range(reps):
            if before:
                before()
            start = time.perf_counter()
            cu.cuMemcpy(ctypes.c_uint64(dst), ctypes.c_uint64(src), ctypes.c_size_t(BYTES))
            synchronize()
            times.append(time.perf_counter() - start)
        median = sorted(times)[len(times) // 2]
        print(f"{what}: {2 * BYTES / median / 1e9:.0f} GB/s ({median * 1e6:.0f} us for 64 MiB "
              f"read and 64 MiB written; median of {reps})")

    d1, d2, m1, m2 = alloc(False), alloc(False), alloc(True), alloc(True)
    for p in (d1, d2, m1, m2):
        fill_on_gpu(p)
    rate("device -> device", d2, d1)
    rate("managed -> managed, both on the GPU", m2, m1)
    rate("device -> managed on the GPU", m2, d1)
    rate("device -> managed whose first 16 bytes the host wrote before each copy", m2, d1,
         lambda: ctypes.memset(m2, 7, 16))
    rate("managed that the host wrote whole -> device", d1, m1,
         lambda: ctypes.memset(m1, 3, BYTES), reps=3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
