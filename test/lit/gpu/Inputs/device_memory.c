/* Calls an nvptx object's functions with inputs in GPU memory (AGC_CUDA), in managed
 * memory (AGC_CUDA_MANAGED), on a stream of the caller's (agc_set_stream), and a
 * --target=cpu,nvptx object's with AGC_CUDA inputs; prints each call's status and the
 * device of its output. The device memory and the stream come from the CUDA driver the
 * runtime loads (AGC_CUDA_DRIVER: the recording stand-in, whose device memory is host
 * memory and which runs no kernel, so a GPU result's values are not printed). Without
 * AGC_CUDA_DRIVER it is NVIDIA's driver (tools/gpu-check.sh, on a GPU): the input is
 * copied into device memory by the driver, in device 0's primary context, and each
 * result's values are checked against the function computed here. */
#include "agc/runtime.h"
#include "both.h"
#include "kernels.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*mem_alloc_fn)(unsigned long long *, size_t);
typedef int (*stream_create_fn)(void **, unsigned);
typedef int (*htod_fn)(unsigned long long, const void *, size_t);
typedef int (*init_fn)(unsigned);
typedef int (*device_get_fn)(int *, int);
typedef int (*ctx_retain_fn)(void **, int);
typedef int (*ctx_set_fn)(void *);

static int real_driver; /* NVIDIA's: the kernels run, so their results are checked */
static const float input_values[5] = {1, 2, 3, 4, 5};

/* On NVIDIA's driver: whether OUT is kernels.py's chain of the five inputs. */
static void check_values(const char *what, const agc_tensor *out) {
  if (!real_driver)
    return;
  int wrong = out->rank != 1 || out->shape[0] != 5;
  for (int i = 0; !wrong && i < 5; ++i) {
    double x = input_values[i], relu = 2 * x + 1 > 0 ? 2 * x + 1 : 0;
    double want = relu * 0.5 + exp(x), got = ((const float *)out->data)[i];
    wrong = fabs(got - want) > 1e-5 * fabs(want);
  }
  printf("%s: values %s\n", what, wrong ? "WRONG" : "right");
}

static void report(const char *what, int code, const agc_status *status, const agc_tensor *out) {
  printf("%s: %d %s", what, code, status->message);
  if (code == AGC_OK && out)
    printf("(output device %d)", (int)out->device);
  printf("\n");
}

int main(void) {
  const char *path = getenv("AGC_CUDA_DRIVER");
  void *driver = dlopen(path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    printf("no driver: %s\n", dlerror());
    return 1;
  }
  mem_alloc_fn mem_alloc = (mem_alloc_fn)dlsym(driver, "cuMemAlloc_v2");
  stream_create_fn stream_create = (stream_create_fn)dlsym(driver, "cuStreamCreate");

  /* Five floats in device memory (the stand-in's is host memory: filled directly). */
  unsigned long long device = 0;
  htod_fn htod = (htod_fn)dlsym(driver, "cuMemcpyHtoD_v2");
  real_driver = htod != NULL; /* the stand-in has no such copy */
  if (real_driver) {
    int ordinal = 0;
    void *context = NULL;
    ((init_fn)dlsym(driver, "cuInit"))(0);
    ((device_get_fn)dlsym(driver, "cuDeviceGet"))(&ordinal, 0);
    ((ctx_retain_fn)dlsym(driver, "cuDevicePrimaryCtxRetain"))(&context, ordinal);
    ((ctx_set_fn)dlsym(driver, "cuCtxSetCurrent"))(context);
  }
  mem_alloc(&device, 5 * sizeof(float));
  if (real_driver)
    htod(device, input_values, sizeof input_values);
  else
    memcpy((void *)(size_t)device, input_values, sizeof input_values);
  int64_t shape[1] = {5};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, shape, (void *)(size_t)device);
  x.device = AGC_CUDA;
  agc_status status;

  /* Outputs start empty: agc_tensor_free of one a call did not fill does nothing. */
  agc_tensor y = {0}, z = {0}, refused = {0};
  int code = kernels_chain(&x, &y, &status);
  report("device input", code, &status, &y);
  if (code == AGC_OK)
    check_values("device input", &y);

  void *stream = NULL;
  stream_create(&stream, 0);
  agc_set_stream(stream);
  printf("stream set: %d\n", agc_stream() == stream);
  code = kernels_chain(&x, &z, &status);
  report("on the caller's stream", code, &status, &z);
  if (code == AGC_OK)
    check_values("on the caller's stream", &z);
  agc_set_stream(NULL);

  /* The first call's output (managed memory) as the next one's input. */
  if (y.device == AGC_CUDA_MANAGED) {
    agc_tensor w;
    code = kernels_chain(&y, &w, &status);
    report("managed input", code, &status, &w);
    if (code == AGC_OK)
      agc_tensor_free(&w);
  }

  /* An empty input, no data: nothing for the driver to copy. */
  int64_t none[1] = {0};
  agc_tensor empty = agc_tensor_wrap(AGC_FLOAT32, 1, none, NULL), e;
  code = kernels_chain(&empty, &e, &status);
  report("empty input", code, &status, &e);
  if (code == AGC_OK)
    agc_tensor_free(&e);

  /* collatz runs on the host: host and managed memory it reads (its output is managed
   * memory all the same), device memory it refuses. */
  int32_t n = 27;
  agc_tensor in = agc_tensor_wrap(AGC_INT32, 0, NULL, &n), steps;
  code = kernels_collatz(&in, &steps, &status);
  report("host input on the host", code, &status, &steps);
  if (code == AGC_OK)
    agc_tensor_free(&steps);
  in.device = AGC_CUDA_MANAGED;
  code = kernels_collatz(&in, &steps, &status);
  report("managed input on the host", code, &status, &steps);
  if (code == AGC_OK) {
    printf("steps: %d\n", *(int32_t *)steps.data);
    agc_tensor_free(&steps);
  }
  in.device = AGC_CUDA;
  code = kernels_collatz(&in, &refused, &status);
  report("device input on the host", code, &status, NULL);
  x.device = (agc_device)7;
  code = kernels_chain(&x, &refused, &status);
  report("unknown device", code, &status, NULL);
  x.device = AGC_CUDA;

  /* A cpu,nvptx object: device memory only where its GPU version runs. */
  agc_tensor b;
  code = both_chain(&x, &b, &status);
  report(agc_uses_gpu() ? "cpu,nvptx on the GPU" : "cpu,nvptx on the CPU", code, &status, &b);
  if (code == AGC_OK) {
    check_values("cpu,nvptx", &b);
    agc_tensor_free(&b);
  }

  agc_tensor_free(&y);
  agc_tensor_free(&z);
  return 0;
}
