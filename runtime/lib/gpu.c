/*===- gpu.c - NVIDIA GPUs through the CUDA driver API, loaded at first use -===*
 *
 * agc's own implementation of what lowered GPU code calls (the mgpu* functions of
 * runtime.h) and of agc_gpu_available, on the CUDA driver API. libcuda.so.1 is loaded
 * with dlopen the first time a GPU is asked for, and its functions looked up by name: the
 * runtime, and every object linked with it, link and start on machines without CUDA, and
 * no CUDA header is needed to build it (the few types and prototypes are declared here, as
 * the driver API's stable ABI defines them). Every CUDA error inside a call ends the call
 * with its status (agrt_fail); no GPU is AGC_NO_GPU. The device memory a call holds when
 * it fails is freed (agrt_gpu_release_call). Launches and copies run on one stream per
 * thread (or the caller's, agc_set_stream).
 *
 *===----------------------------------------------------------------------------------===*/
#include "agc/runtime.h"
#include "gpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

enum { CUDA_SUCCESS = 0 };

/* The driver's functions agc uses, by the names libcuda exports (the _v2 forms are what
 * cuda.h's macros name). */
static struct {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y,
                             unsigned grid_z, unsigned block_x, unsigned block_y,
                             unsigned block_z, unsigned shared_bytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *pointer, size_t bytes, unsigned flags);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemcpy)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
} cu;

static struct {
  pthread_once_t once;
  int ready;          /* 1: a device and its primary context */
  char why[400];      /* otherwise, why not */
  CUcontext context;
} gpu = {PTHREAD_ONCE_INIT, 0, "", 0};

/* The driver's name for `error`. */
static const char *error_text(CUresult error) {
  const char *text = 0;
  if (cu.cuGetErrorString && cu.cuGetErrorString(error, &text) == CUDA_SUCCESS && text)
    return text;
  return "unknown CUDA error";
}

static void load_driver(void) {
  const char *path = getenv("AGC_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(gpu.why, sizeof gpu.why, "no GPU: the CUDA driver (%s) is not installed (%s)",
             path, dlerror());
    return;
  }
  struct {
    const char *name;
    void **slot;
  } functions[] = {
      {"cuInit", (void **)&cu.cuInit},
      {"cuDeviceGetCount", (void **)&cu.cuDeviceGetCount},
      {"cuDeviceGet", (void **)&cu.cuDeviceGet},
      {"cuDevicePrimaryCtxRetain", (void **)&cu.cuDevicePrimaryCtxRetain},
      {"cuCtxSetCurrent", (void **)&cu.cuCtxSetCurrent},
      {"cuModuleLoadData", (void **)&cu.cuModuleLoadData},
      {"cuModuleUnload", (void **)&cu.cuModuleUnload},
      {"cuModuleGetFunction", (void **)&cu.cuModuleGetFunction},
      {"cuLaunchKernel", (void **)&cu.cuLaunchKernel},
      {"cuStreamCreate", (void **)&cu.cuStreamCreate},
      {"cuStreamDestroy_v2", (void **)&cu.cuStreamDestroy},
      {"cuStreamSynchronize", (void **)&cu.cuStreamSynchronize},
      {"cuMemAlloc_v2", (void **)&cu.cuMemAlloc},
      {"cuMemAllocManaged", (void **)&cu.cuMemAllocManaged},
      {"cuMemFree_v2", (void **)&cu.cuMemFree},
      {"cuMemcpy", (void **)&cu.cuMemcpy},
      {"cuMemcpyAsync", (void **)&cu.cuMemcpyAsync},
      {"cuGetErrorString", (void **)&cu.cuGetErrorString},
  };
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; ++i) {
    *functions[i].slot = dlsym(lib, functions[i].name);
    if (!*functions[i].slot) {
      snprintf(gpu.why, sizeof gpu.why,
               "no GPU: the CUDA driver (%s) has no %s (too old a driver?)", path,
               functions[i].name);
      return;
    }
  }
  CUresult error = cu.cuInit(0);
  int count = 0;
  if (error == CUDA_SUCCESS)
    error = cu.cuDeviceGetCount(&count);
  if (error != CUDA_SUCCESS || count == 0) {
    snprintf(gpu.why, sizeof gpu.why, "no GPU: the CUDA driver finds no device (%s)",
             error == CUDA_SUCCESS ? "none" : error_text(error));
    return;
  }
  CUdevice device;
  error = cu.cuDeviceGet(&device, 0);
  if (error == CUDA_SUCCESS)
    error = cu.cuDevicePrimaryCtxRetain(&gpu.context, device);
  if (error != CUDA_SUCCESS) {
    snprintf(gpu.why, sizeof gpu.why, "no GPU: device 0 cannot be used (%s)",
             error_text(error));
    return;
  }
  gpu.ready = 1;
}

int agc_gpu_available(agc_status *status) {
  pthread_once(&gpu.once, load_driver);
  if (status) {
    status->code = gpu.ready ? AGC_OK : AGC_NO_GPU;
    snprintf(status->message, sizeof status->message, "%s", gpu.ready ? "" : gpu.why);
  }
  return gpu.ready;
}

static struct {
  pthread_once_t once;
  int gpu;
} device_choice = {PTHREAD_ONCE_INIT, 0};

static void choose_device(void) {
  const char *device = getenv("AGC_DEVICE");
  if (device && strcmp(device, "cpu") == 0)
    device_choice.gpu = 0;
  else if (device && strcmp(device, "gpu") == 0)
    device_choice.gpu = 1;
  else
    device_choice.gpu = agc_gpu_available(NULL);
}

int agc_uses_gpu(void) {
  pthread_once(&device_choice.once, choose_device);
  return device_choice.gpu;
}

/* Inside a call: the GPU, current on this thread, or the call ends with AGC_NO_GPU. */
static void use_gpu(void) {
  if (!agc_gpu_available(0))
    agrt_fail_code(AGC_NO_GPU, gpu.why);
  CUresult error = cu.cuCtxSetCurrent(gpu.context);
  if (error != CUDA_SUCCESS)
    agrt_fail_code(AGC_NO_GPU, error_text(error));
}

/* A driver call's result: on an error, the call ends with `what` and the driver's text. */
static void check(CUresult error, const char *what) {
  if (error == CUDA_SUCCESS)
    return;
  char text[400];
  snprintf(text, sizeof text, "GPU: %s failed: %s", what, error_text(error));
  agrt_fail(text);
}

/* The runtime's stream for this thread's calls: made at the thread's first launch or
 * copy, then used by all of them, destroyed when the thread ends (a thread-specific
 * value's destructor; the process's main thread leaves its stream to the driver). */
static _Thread_local CUstream own_stream;
/* The caller's stream for this thread's calls (agc_set_stream), or NULL. */
static _Thread_local CUstream caller_stream;

/* What this thread's calls hold on the device: each buffer, with the call that made it.
 * A call's own code frees them; a failed call's are freed for it. */
typedef struct held {
  void *handle;
  void *frame;
  struct held *next;
} held;
static _Thread_local held *holding;

static void hold(void *handle) {
  held *h = malloc(sizeof *h);
  if (!h) {
    /* Not tracked: released by the code, or lost if the call fails. */
    return;
  }
  h->handle = handle;
  h->frame = agrt_call_frame();
  h->next = holding;
  holding = h;
}

static void release(void *handle) {
  for (held **p = &holding; *p; p = &(*p)->next)
    if ((*p)->handle == handle) {
      held *h = *p;
      *p = h->next;
      free(h);
      return;
    }
}

void agrt_gpu_release_call(void *frame) {
  /* Nothing the call queued may still run on what is freed below (errors ignored: the
   * call is failing already, with its own message). */
  CUstream stream = caller_stream ? caller_stream : own_stream;
  if (holding && stream)
    (void)cu.cuStreamSynchronize(stream);
  for (held **p = &holding; *p;) {
    held *h = *p;
    if (h->frame != frame) {
      p = &h->next;
      continue;
    }
    *p = h->next;
    (void)cu.cuMemFree((CUdeviceptr)(uintptr_t)h->handle);
    free(h);
  }
}

/* A kernel module: the image an object's constructor records, given to the driver at
 * the first launch of one of its kernels (inside a call, where an error has a status to
 * go to; a program that never launches one never loads the driver). */
typedef struct gpu_module {
  const void *image; /* PTX text or a fat binary: either says its own size */
  pthread_mutex_t lock;
  CUmodule module;   /* once loaded */
} gpu_module;

static void *record_module(const void *image) {
  gpu_module *m = malloc(sizeof *m);
  if (!m)
    return NULL; /* the first launch says so */
  m->image = image;
  pthread_mutex_init(&m->lock, NULL);
  m->module = 0;
  return m;
}

void *mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  return record_module(data);
}

void *mgpuModuleLoadJIT(void *data, int opt_level) {
  (void)opt_level; /* the driver's default, its highest */
  return record_module(data);
}

void mgpuModuleUnload(void *module) {
  gpu_module *m = module;
  if (!m)
    return;
  /* At exit: the driver may be shut down already, and there is no call to fail. */
  if (m->module && cu.cuModuleUnload)
    (void)cu.cuModuleUnload(m->module);
  pthread_mutex_destroy(&m->lock);
  free(m);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  gpu_module *m = module;
  if (!m)
    agrt_fail_out_of_memory(sizeof(gpu_module));
  use_gpu();
  CUresult error = CUDA_SUCCESS;
  pthread_mutex_lock(&m->lock);
  if (!m->module)
    error = cu.cuModuleLoadData(&m->module, m->image);
  CUmodule loaded = m->module;
  pthread_mutex_unlock(&m->lock); /* before check: a failure leaves by longjmp */
  check(error, "loading the kernels (cuModuleLoadData)");
  CUfunction function = 0;
  check(cu.cuModuleGetFunction(&function, loaded, name), "cuModuleGetFunction");
  return function;
}

void agrt_gpu_check_launch(intptr_t grid_x, intptr_t grid_y, intptr_t grid_z,
                           intptr_t block_x, intptr_t block_y, intptr_t block_z) {
  if (grid_x <= 2147483647 && grid_y <= 65535 && grid_z <= 65535 && block_x <= 1024 &&
      block_y <= 1024 && block_z <= 64 && block_x * block_y * block_z <= 1024)
    return;
  char text[400];
  snprintf(text, sizeof text,
           "GPU: internal error: agc launched a kernel of %jd x %jd x %jd blocks of %jd x "
           "%jd x %jd threads, past what a GPU takes (2147483647 x 65535 x 65535 blocks of "
           "1024 threads, at most 64 along z); please report it",
           (intmax_t)grid_x, (intmax_t)grid_y, (intmax_t)grid_z, (intmax_t)block_x,
           (intmax_t)block_y, (intmax_t)block_z);
  agrt_fail(text);
}

void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y, intptr_t grid_z,
                      intptr_t block_x, intptr_t block_y, intptr_t block_z,
                      int32_t shared_bytes, void *stream, void **params, void **extra,
                      size_t param_count) {
  (void)param_count;
  use_gpu();
  /* A kernel over an empty tensor has a grid of no blocks, which the driver refuses
   * (CUDA_ERROR_INVALID_VALUE, seen on an H200) where there is nothing to do. */
  if (grid_x <= 0 || grid_y <= 0 || grid_z <= 0 || block_x <= 0 || block_y <= 0 || block_z <= 0)
    return;
  agrt_gpu_check_launch(grid_x, grid_y, grid_z, block_x, block_y, block_z);
  check(cu.cuLaunchKernel((CUfunction)function, (unsigned)grid_x, (unsigned)grid_y,
                          (unsigned)grid_z, (unsigned)block_x, (unsigned)block_y,
                          (unsigned)block_z, (unsigned)shared_bytes, (CUstream)stream,
                          params, extra),
        "launching a kernel (cuLaunchKernel)");
}


void agc_set_stream(void *stream) { caller_stream = (CUstream)stream; }

void *agc_stream(void) { return caller_stream; }

static pthread_key_t own_stream_key;
static pthread_once_t own_stream_once = PTHREAD_ONCE_INIT;

static void destroy_own_stream(void *stream) {
  if (stream && gpu.ready && cu.cuCtxSetCurrent(gpu.context) == CUDA_SUCCESS)
    (void)cu.cuStreamDestroy((CUstream)stream);
}

static void make_own_stream_key(void) {
  (void)pthread_key_create(&own_stream_key, destroy_own_stream);
}

/* Each launch and each copy of the caller's tensors asks for a stream (MLIR's lowering
 * of synchronous launches: create, launch, synchronize, destroy): the caller's where it
 * gave one, else this thread's own; neither is destroyed here. A stream made and
 * destroyed around every launch cost two driver calls each (tens of microseconds in a
 * loop of small kernels). */
void *mgpuStreamCreate(void) {
  use_gpu();
  if (caller_stream)
    return caller_stream;
  if (!own_stream) {
    CUstream stream = 0;
    check(cu.cuStreamCreate(&stream, 0), "cuStreamCreate");
    pthread_once(&own_stream_once, make_own_stream_key);
    (void)pthread_setspecific(own_stream_key, stream);
    own_stream = stream;
  }
  return own_stream;
}

void mgpuStreamDestroy(void *stream) {
  if (!stream || stream == caller_stream || stream == own_stream)
    return; /* (no driver call after every launch) */
  use_gpu();
  check(cu.cuStreamDestroy((CUstream)stream), "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  use_gpu();
  /* A kernel's own fault (an illegal address, ...) is reported here. */
  check(cu.cuStreamSynchronize((CUstream)stream), "a kernel (cuStreamSynchronize)");
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared) {
  (void)stream;
  use_gpu();
  CUdeviceptr pointer = 0;
  CUresult error = host_shared ? cu.cuMemAllocManaged(&pointer, bytes, 1 /* global */)
                               : cu.cuMemAlloc(&pointer, bytes);
  if (error != CUDA_SUCCESS) {
    char text[400];
    snprintf(text, sizeof text, "GPU: out of device memory: could not allocate %llu bytes (%s)",
             (unsigned long long)bytes, error_text(error));
    agrt_fail_code(AGC_OUT_OF_MEMORY, text);
  }
  hold((void *)(uintptr_t)pointer);
  return (void *)(uintptr_t)pointer;
}

void mgpuMemFree(void *pointer, void *stream) {
  (void)stream;
  use_gpu();
  release(pointer);
  check(cu.cuMemFree((CUdeviceptr)(uintptr_t)pointer), "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (bytes == 0) /* an empty tensor's data may be NULL */
    return;
  use_gpu();
  /* Unified addressing: the driver tells host from device memory by the address (the
   * caller's tensors may be either: AGC_HOST, AGC_CUDA). On a stream, after the work
   * queued on it; the code waits for the stream next. */
  if (stream)
    check(cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, bytes,
                           (CUstream)stream),
          "a copy (cuMemcpyAsync)");
  else
    check(cu.cuMemcpy((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, bytes),
          "a copy (cuMemcpy)");
}

void *agrt_gpu_managed_alloc(size_t bytes) {
  if (!agc_gpu_available(0) || cu.cuCtxSetCurrent(gpu.context) != CUDA_SUCCESS)
    return NULL;
  CUdeviceptr pointer = 0;
  if (cu.cuMemAllocManaged(&pointer, bytes ? bytes : 1, 1 /* global */) != CUDA_SUCCESS)
    return NULL;
  return (void *)(uintptr_t)pointer;
}

void agrt_gpu_managed_free(void *pointer) {
  if (pointer && gpu.ready)
    (void)cu.cuMemFree((CUdeviceptr)(uintptr_t)pointer);
}
