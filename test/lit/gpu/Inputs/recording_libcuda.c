/* A recording stand-in for NVIDIA's libcuda.so.1, built by the test suite (it is not
 * NVIDIA's driver and runs nothing on a GPU): each driver function agc's runtime uses
 * appends a line to the file $RECORDING_CUDA_LOG and succeeds, or fails as
 * $RECORDING_CUDA_FAULT asks (init, no-device, oom, launch, sync). Device memory is host
 * memory; copies are memcpy; a launch runs nothing; a module loaded is logged as its
 * PTX's first bytes or as a fat binary. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static void record(const char *format, ...) {
  const char *path = getenv("RECORDING_CUDA_LOG");
  FILE *log = path ? fopen(path, "a") : NULL;
  if (!log)
    return;
  va_list args;
  va_start(args, format);
  vfprintf(log, format, args);
  va_end(args);
  fputc('\n', log);
  fclose(log);
}

static int fault(const char *which) {
  const char *f = getenv("RECORDING_CUDA_FAULT");
  return f && strcmp(f, which) == 0;
}

static int live_buffers, contexts;

CUresult cuInit(unsigned flags) {
  record("cuInit(%u)", flags);
  return fault("init") ? 100 /* CUDA_ERROR_NO_DEVICE */ : 0;
}
CUresult cuDeviceGetCount(int *count) {
  *count = fault("no-device") ? 0 : 1;
  record("cuDeviceGetCount -> %d", *count);
  return 0;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  record("cuDeviceGet(%d)", ordinal);
  *device = ordinal;
  return 0;
}
CUresult cuDeviceGetName(char *name, int size, int device) {
  snprintf(name, (size_t)size, "recording stand-in %d", device);
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  /* The memory clock (kHz) and bus width (bits) the GPU benchmark asks for. */
  *value = attribute == 36 ? 1000000 : attribute == 37 ? 256 : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  record("cuDevicePrimaryCtxRetain(%d)", device);
  *context = &contexts;
  return 0;
}
CUresult cuCtxSetCurrent(void *context) {
  return context == &contexts ? 0 : 201 /* CUDA_ERROR_INVALID_CONTEXT */;
}
CUresult cuModuleLoadData(void **module, const void *image) {
  const unsigned char *bytes = image;
  if (bytes[0] == 0x50 && bytes[1] == 0xed && bytes[2] == 0x55 && bytes[3] == 0xba)
    record("cuModuleLoadData(fat binary)"); /* a CUDA fat binary's magic, 0xba55ed50 */
  else
    record("cuModuleLoadData(\"%.20s\")", (const char *)image);
  *module = malloc(1);
  return 0;
}
CUresult cuModuleUnload(void *module) {
  record("cuModuleUnload");
  free(module);
  return 0;
}
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  record("cuModuleGetFunction(%s)", name);
  *function = module;
  return 0;
}
CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void *stream,
                        void **params, void **extra) {
  (void)function, (void)extra;
  record("cuLaunchKernel(grid %ux%ux%u, block %ux%ux%u, shared %u, first parameter %lld, "
         "stream %p)",
         gx, gy, gz, bx, by, bz, shared, params ? *(long long *)params[0] : -1LL, stream);
  /* NVIDIA's driver refuses a dimension of 0 (seen on an H200: an empty tensor's kernel). */
  if (!gx || !gy || !gz || !bx || !by || !bz)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  return fault("launch") ? 719 /* CUDA_ERROR_LAUNCH_FAILED */ : 0;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  *stream = malloc(1);
  record("cuStreamCreate(%u) -> %p", flags, *stream);
  return 0;
}
CUresult cuStreamDestroy_v2(void *stream) {
  record("cuStreamDestroy(%p)", stream);
  free(stream);
  return 0;
}
CUresult cuStreamSynchronize(void *stream) {
  record("cuStreamSynchronize(%p)", stream);
  return fault("sync") ? 700 /* CUDA_ERROR_ILLEGAL_ADDRESS */ : 0;
}
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  record("cuMemAlloc(%zu)", bytes);
  if (fault("oom"))
    return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  *pointer = (CUdeviceptr)(size_t)malloc(bytes);
  ++live_buffers;
  return 0;
}
CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned flags) {
  void *memory = NULL; /* aligned as the driver's allocations are (256 bytes at least) */
  if (posix_memalign(&memory, 256, bytes))
    return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  *pointer = (CUdeviceptr)(size_t)memory;
  record("cuMemAllocManaged(%zu, %u) -> %p", bytes, flags, memory);
  ++live_buffers;
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  record("cuMemFree (%d left)", --live_buffers);
  free((void *)(size_t)pointer);
  return 0;
}
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  record("cuMemcpy(%zu)", bytes);
  memcpy((void *)(size_t)dst, (const void *)(size_t)src, bytes);
  return 0;
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, void *stream) {
  record("cuMemcpyAsync(%zu, stream %p)", bytes, stream);
  memcpy((void *)(size_t)dst, (const void *)(size_t)src, bytes);
  return 0;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case 2: *text = "out of memory"; return 0;
  case 100: *text = "no CUDA-capable device is detected"; return 0;
  case 700: *text = "an illegal memory access was encountered"; return 0;
  case 719: *text = "unspecified launch failure"; return 0;
  default: return 1;
  }
}
