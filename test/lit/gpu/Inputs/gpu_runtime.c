/* agc's GPU runtime through the driver calls a compiled function's host code makes:
 * asks whether a GPU is available, then runs one call that loads a kernel module, copies
 * 16 floats to the device, launches, synchronizes, copies them back and frees all; prints
 * what each returned. With "again": a second call on this thread, then one on a thread
 * of its own. With "grid": the launch has 65,536 blocks along y. With "blocks": calls that allocate many managed blocks (the host code's
 * buffers) and free them in a shuffled order, the last call failing with some of them
 * live (freed for it), then the kept ones given back. */
#include "agc/runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static float host[16];
/* The launch's grid along y: 65,536 with "grid", one more than a GPU takes. */
static long grid_y = 1;

static void body(void **descriptors) {
  (void)descriptors;
  static const char ptx[] = "//\n.version 7.0\n.target sm_80\n";
  void *module = mgpuModuleLoad((void *)ptx, sizeof ptx);
  void *kernel = mgpuModuleGetFunction(module, "chain_kernel");
  void *device = mgpuMemAlloc(sizeof host, NULL, false);
  mgpuMemcpy(device, host, sizeof host, NULL);
  void *stream = mgpuStreamCreate();
  long long n = 16;
  void *params[] = {&n, &device};
  mgpuLaunchKernel(kernel, 1, grid_y, 1, 256, 1, 1, 0, stream, params, NULL, 2);
  mgpuStreamSynchronize(stream);
  mgpuMemcpy(host, device, sizeof host, NULL);
  mgpuMemFree(device, NULL);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
}

static agrt_function fn = {"gpu_call", 0, NULL, 0, NULL, body, AGRT_NO_FLOAT_MODE};

/* Managed blocks: 3000 of sizes from 1 byte to 4 MiB, each filled with its number,
 * freed in a shuffled order as more are made; each still holds its number when freed.
 * The failing call (fail_after >= 0) fails with `fail_after` blocks live. */
enum { kBlocks = 3000 };
static int fail_after = -1;
static void many_blocks(void **descriptors) {
  (void)descriptors;
  static unsigned char *live[kBlocks];
  static size_t sizes[kBlocks];
  unsigned state = 12345;
  int count = 0;
  for (int made = 0; made < kBlocks; ++made) {
    state = state * 1103515245u + 12345u;
    size_t size = (size_t)1 << (state >> 16) % 23;
    unsigned char *p = agrt_gpu_aligned_alloc(64, size);
    if ((uintptr_t)p % 64)
      agrt_fail("a managed block is not aligned");
    memset(p, made & 0xff, size);
    live[count] = p, sizes[count] = size, ++count;
    if (count == fail_after)
      agrt_fail("failing with blocks live");
    while (count > 0 && (state >> 8) % 3 == 0) { /* free some, shuffled */
      int i = (int)((state >> 4) % (unsigned)count);
      if (live[i][0] != live[i][sizes[i] - 1])
        agrt_fail("a managed block changed");
      agrt_free(live[i]);
      live[i] = live[--count], sizes[i] = sizes[count];
      state = state * 1103515245u + 12345u;
    }
  }
  while (count > 0)
    agrt_free(live[--count]);
}
static agrt_function blocks_fn = {"blocks", 0, NULL, 0, NULL, many_blocks, AGRT_NO_FLOAT_MODE};

/* A call on a thread of its own, which then ends. */
static void *on_a_thread(void *unused) {
  (void)unused;
  agc_status status;
  int code = agrt_call(&fn, NULL, &status);
  printf("thread's call: %d %s\n", code, status.message);
  return NULL;
}

int main(int argc, char **argv) {
  agc_status status;
  if (argc > 1 && strcmp(argv[1], "blocks") == 0) {
    int code = agrt_call(&blocks_fn, NULL, &status);
    printf("blocks: %d %s\n", code, status.message);
    fail_after = 500;
    code = agrt_call(&blocks_fn, NULL, &status);
    printf("failing: %d %s\n", code, status.message);
    printf("released: %s\n", agc_release_memory() > 0 ? "some" : "none");
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "grid") == 0)
    grid_y = 65536;
  int available = agc_gpu_available(&status);
  printf("available: %d (%d) %s\n", available, status.code, status.message);
  for (int i = 0; i < 16; ++i)
    host[i] = (float)i;
  int code = agrt_call(&fn, NULL, &status);
  printf("call: %d %s\n", code, status.message);
  printf("host[15] = %g\n", host[15]);
  if (argc > 1 && strcmp(argv[1], "again") == 0) {
    code = agrt_call(&fn, NULL, &status);
    printf("second call: %d %s\n", code, status.message);
    pthread_t thread;
    pthread_create(&thread, NULL, on_a_thread, NULL);
    pthread_join(thread, NULL);
    printf("thread ended\n");
  }
  return 0;
}
