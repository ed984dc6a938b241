//===- Prefault.cpp - agc's first memory, faulted in on a second CPU -------===//
//
// A compile of a small program writes some 2 MB of heap and all of agc's zero-initialized
// data (.bss, 0.5 MB): about 550 pages, each first touched by a page fault on the
// compiling thread, 1.4–3.5 µs apiece on the machines agc is measured on (a third of the
// process's faults, 4–5% of the tanh loop's compile). Before any static initializer
// that would touch them runs, a thread on another CPU asks the kernel to fault them in
// ahead of use (MADV_POPULATE_WRITE, Linux 5.14; no fault, no trap per page). The heap is
// made to grow by that much at once (malloc's top pad) so that there is a range to
// populate; where the process may use only one CPU, or the kernel does not know the
// advice, nothing happens and the faults are taken as before.
//
// Only what a compile certainly uses: populating more (8 MB of heap, or agc's ordered
// text) made the process slower, as each page costs the kernel as much either way and the
// two CPUs' faults contend. README "Performance" has the measurements.
//
//===----------------------------------------------------------------------------------===//
#include <cstdint>
#include <cstdlib>

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

// The start and end of the executable's zero-initialized data (the linker's symbols).
extern "C" char __bss_start[], _end[];

namespace {

/// The heap a compile of a small program writes, beyond what static initialization had
/// taken when this runs.
constexpr size_t kHeapBytes = size_t(2) << 20;

struct Range {
  uintptr_t begin = 0, end = 0;
};
Range heap;

uintptr_t pageDown(uintptr_t p) { return p & ~uintptr_t(4095); }
uintptr_t pageUp(uintptr_t p) { return pageDown(p + 4095); }

void populate(Range r) {
  if (r.begin < r.end)
    (void)madvise(reinterpret_cast<void *>(r.begin), r.end - r.begin, MADV_POPULATE_WRITE);
}

void *prefault(void *) {
  // .bss first: static initializers write it from the start.
  populate({pageUp(reinterpret_cast<uintptr_t>(__bss_start)),
            pageUp(reinterpret_cast<uintptr_t>(_end))});
  populate(heap);
  return nullptr;
}

/// Runs before every static initializer of default priority (LLVM's and MLIR's among
/// them), which are what first write .bss and the heap.
__attribute__((constructor(101))) void startPrefault() {
  cpu_set_t others;
  int cpu = sched_getcpu();
  if (cpu < 0 || sched_getaffinity(0, sizeof others, &others) != 0 || CPU_COUNT(&others) < 2 ||
      !CPU_ISSET(cpu, &others))
    return;
  CPU_CLR(cpu, &others);
  // The heap grows by kHeapBytes more than each request, and gives none of it back (as
  // glibc's dynamic thresholds do for a process that frees large blocks); allocating a
  // block larger than what is left makes it grow now.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_TOP_PAD, kHeapBytes);
  uintptr_t before = reinterpret_cast<uintptr_t>(sbrk(0));
  void *volatile block = malloc(256 << 10); // volatile: a malloc/free pair may be elided
  free(block);
  uintptr_t after = reinterpret_cast<uintptr_t>(sbrk(0));
  if (before != uintptr_t(-1) && after != uintptr_t(-1))
    heap = {pageDown(before), pageDown(after)};
  // Placed on another CPU from its start: Linux runs a new thread on its parent's CPU
  // until it balances the load, milliseconds later, after the static initializers.
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0)
    return;
  pthread_t thread;
  if (pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
      pthread_attr_setstacksize(&attr, 64 << 10) == 0 &&
      pthread_attr_setaffinity_np(&attr, sizeof others, &others) == 0)
    (void)pthread_create(&thread, &attr, prefault, nullptr);
  pthread_attr_destroy(&attr);
}

} // namespace
