/* agc's GPU runtime through the driver calls a compiled function's host code makes:
 * asks whether a GPU is available, then runs one call that loads a kernel module, copies
 * 16 floats to the device, launches, synchronizes, copies them back and frees all; prints
 * what each returned. With "again": a second call on this thread, then one on a thread
 * of its own. */
#include "agc/runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static float host[16];

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
  mgpuLaunchKernel(kernel, 1, 1, 1, 256, 1, 1, 0, stream, params, NULL, 2);
  mgpuStreamSynchronize(stream);
  mgpuMemcpy(host, device, sizeof host, NULL);
  mgpuMemFree(device, NULL);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
}

static agrt_function fn = {"gpu_call", 0, NULL, 0, NULL, body, AGRT_NO_FLOAT_MODE};

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
