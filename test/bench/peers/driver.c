/* Runs one benchmark workload through its agc-compiled entry point (programs.py compiled
 * by `agc compile`), the way a C program uses agc: inputs wrapped in agc_tensor, the call,
 * the output freed.
 *
 * usage: driver WORKLOAD DIR WARMUP REPS [BATCH]
 * Reads DIR/WORKLOAD.in, prints {"times": [...]} (seconds per call), and writes the
 * result to DIR/WORKLOAD.agc.out. BATCH calls make one timed run (for the cost of a call).
 * With BENCH_INPUTS=cuda in the environment (bench.py --gpu), the inputs are copied to
 * the GPU once, before the timed calls, and passed as AGC_CUDA tensors: the timed calls
 * then copy nothing from the host, as calls on JAX's device arrays do (each still copies
 * its inputs on the GPU, into buffers of its own). The workload double_scalar calls
 * double's scalar entry point (programs_double_scalar), values in and out. */
#include "bench_io.h"
#include "programs.h"

#include <dlfcn.h>

typedef int (*entry_fn)(const agc_tensor *const *, agc_tensor *const *, agc_status *);

static const struct {
  const char *name;
  entry_fn fn;
} entries[] = {
    {"collatz_total", programs_collatz_total_v},
    {"count_primes", programs_count_primes_v},
    {"gcd_total", programs_gcd_total_v},
    {"double", programs_double_v},
    {"tanh_loop", programs_tanh_loop_v},
    {"rnn", programs_rnn_v},
    {"newton_sqrt", programs_newton_sqrt_v},
    {"elementwise_chain", programs_elementwise_chain_v},
    {"binary_chain", programs_binary_chain_v},
    {"reduce_total", programs_reduce_total_v},
    {"matmul", programs_matmul_v},
    {"softmax", programs_softmax_v},
    {"elementwise_chain_dyn", programs_elementwise_chain_dyn_v},
    {"binary_chain_dyn", programs_binary_chain_dyn_v},
    {"reduce_total_dyn", programs_reduce_total_dyn_v},
    {"matmul_dyn", programs_matmul_dyn_v},
    {"matmul_odd_dyn", programs_matmul_dyn_v}, /* the same function, other sizes */
    {"softmax_dyn", programs_softmax_dyn_v},
};

typedef struct {
  entry_fn fn;
  int scalar; /* double_scalar: programs_double_scalar, on inputs[0]'s value */
  const agc_tensor *inputs[BENCH_MAX_TENSORS];
  agc_tensor result;
  int keep; /* keep the result of the next call (the last one) instead of freeing it */
} call_ctx;

static void call(void *p) {
  call_ctx *c = p;
  agc_tensor *outputs[1] = {&c->result};
  agc_status status;
  if (c->scalar) {
    static int32_t value; /* where a result is kept: the result tensor's data */
    if (programs_double_scalar(*(const int32_t *)c->inputs[0]->data, &value, &status) != AGC_OK)
      bench_die("the call failed", status.message);
    if (c->keep)
      c->result = agc_tensor_wrap(AGC_INT32, 0, NULL, &value);
    return;
  }
  if (c->fn(c->inputs, outputs, &status) != AGC_OK)
    bench_die("the call failed", status.message);
  if (!c->keep)
    agc_tensor_free(&c->result);
}

/* Copies the inputs to device 0's memory through the CUDA driver (its primary context,
 * the one agc's runtime uses), and points them there. */
static void inputs_to_gpu(agc_tensor *tensors, int n) {
  typedef unsigned long long dptr;
  const char *path = getenv("AGC_CUDA_DRIVER"); /* as agc's runtime reads it */
  void *cuda = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda)
    bench_die("BENCH_INPUTS=cuda: no CUDA driver", dlerror());
  int (*init)(unsigned) = (int (*)(unsigned))dlsym(cuda, "cuInit");
  int (*device_get)(int *, int) = (int (*)(int *, int))dlsym(cuda, "cuDeviceGet");
  int (*retain)(void **, int) = (int (*)(void **, int))dlsym(cuda, "cuDevicePrimaryCtxRetain");
  int (*set_current)(void *) = (int (*)(void *))dlsym(cuda, "cuCtxSetCurrent");
  int (*alloc)(dptr *, size_t) = (int (*)(dptr *, size_t))dlsym(cuda, "cuMemAlloc_v2");
  /* cuMemcpy: with unified addressing (every 64-bit platform) it takes host pointers. */
  int (*copy)(dptr, dptr, size_t) = (int (*)(dptr, dptr, size_t))dlsym(cuda, "cuMemcpy");
  int device = 0;
  void *context = NULL;
  if (!init || !device_get || !retain || !set_current || !alloc || !copy)
    bench_die("BENCH_INPUTS=cuda: the CUDA driver lacks a function", NULL);
  if (init(0) || device_get(&device, 0) || retain(&context, device) || set_current(context))
    bench_die("BENCH_INPUTS=cuda: the CUDA driver gives no context on device 0", NULL);
  for (int i = 0; i < n; ++i) {
    size_t bytes = (size_t)agc_tensor_size(&tensors[i]) * agc_dtype_size(tensors[i].dtype);
    dptr d = 0;
    if (bytes == 0)
      continue;
    if (alloc(&d, bytes) || copy(d, (dptr)(uintptr_t)tensors[i].data, bytes))
      bench_die("BENCH_INPUTS=cuda: an input could not be copied to the GPU", NULL);
    free(tensors[i].data); /* device memory is given back at exit */
    tensors[i].data = (void *)(uintptr_t)d;
    tensors[i].device = AGC_CUDA;
  }
}

int main(int argc, char **argv) {
  if (argc < 5)
    bench_die("usage: driver WORKLOAD DIR WARMUP REPS [BATCH]", NULL);
  call_ctx c = {0};
  for (size_t i = 0; i < sizeof entries / sizeof entries[0]; ++i)
    if (strcmp(entries[i].name, argv[1]) == 0)
      c.fn = entries[i].fn;
  if (strcmp(argv[1], "double_scalar") == 0)
    c.fn = programs_double_v, c.scalar = 1;
  if (!c.fn)
    bench_die("no such workload", argv[1]);
  char path[4096];
  agc_tensor tensors[BENCH_MAX_TENSORS];
  snprintf(path, sizeof path, "%s/%s.in", argv[2], argv[1]);
  int n = bench_read(path, tensors);
  const char *where = getenv("BENCH_INPUTS");
  int on_gpu = where && strcmp(where, "cuda") == 0;
  if (on_gpu)
    inputs_to_gpu(tensors, n);
  for (int i = 0; i < n; ++i)
    c.inputs[i] = &tensors[i];
  bench_time(call, &c, atoi(argv[3]), atoi(argv[4]), argc > 5 ? atol(argv[5]) : 1);
  c.keep = 1;
  call(&c);
  snprintf(path, sizeof path, "%s/%s.agc.out", argv[2], argv[1]);
  bench_write(path, &c.result);
  if (!c.scalar)
    agc_tensor_free(&c.result);
  for (int i = 0; i < n && !on_gpu; ++i)
    free(tensors[i].data);
  return 0;
}
