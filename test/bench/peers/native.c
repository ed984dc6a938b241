/* The benchmark workloads written by hand in C (compiled with clang -O2): the native limit
 * agc is measured against. Same algorithms as programs.py, same inputs, same timing loop
 * as driver.c.
 *
 * The large-tensor workloads have an OpenMP form too (compiled with -fopenmp), chosen by
 * the prefix omp: (native omp:reduce_total ...; result to DIR/WORKLOAD.c_omp.out): the
 * same loops with `#pragma omp parallel for` on all cores, what a C programmer would
 * write, as the threaded peer of agc's parallel work.
 *
 * usage: native WORKLOAD DIR WARMUP REPS [BATCH]   time WORKLOAD; result to DIR/WORKLOAD.c.out
 *        native work WORKLOAD DIR                  the inner-loop iterations of a scalar
 *                                                  workload on DIR/WORKLOAD.in (bench.py
 *                                                  scales reduced runs of slow peers by it)
 *        native stream                             this machine's memory bandwidth, on
 *                                                  one core and on all (OpenMP)
 */
#include "bench_io.h"

#include <math.h>
#include <unistd.h>

typedef struct {
  agc_tensor in[BENCH_MAX_TENSORS];
  agc_tensor out;
  long long work; /* inner-loop iterations of the last run */
} ctx_t;

/* Whether the omp: form runs (the OpenMP loops' if clause). */
static int threaded;

#define F32(t) ((float *)(t).data)
#define I32(t) ((int32_t *)(t).data)
#define I64(t) ((int64_t *)(t).data)

/* The output: the buffer of the last run when it has the same size (what a hand-written
 * program does), a fresh one otherwise. */
static void out_alloc(ctx_t *c, agc_dtype dtype, int rank, const int64_t *shape) {
  size_t old = c->out.data ? (size_t)agc_tensor_size(&c->out) * agc_dtype_size(c->out.dtype) : 0;
  void *data = c->out.data;
  c->out = agc_tensor_wrap(dtype, rank, shape, NULL);
  size_t bytes = (size_t)agc_tensor_size(&c->out) * agc_dtype_size(dtype);
  if (!data || bytes != old) {
    free(data);
    data = malloc(bytes ? bytes : 1);
  }
  c->out.data = data;
}

static void collatz_total(ctx_t *c) {
  int64_t n = I64(c->in[0])[0], total = 0;
  for (int64_t i = 1; i <= n; ++i)
    for (int64_t k = i; k > 1; ++total)
      k = k % 2 == 0 ? k / 2 : 3 * k + 1;
  out_alloc(c, AGC_INT64, 0, NULL);
  I64(c->out)[0] = total;
  c->work = total;
}

static void count_primes(ctx_t *c) {
  int32_t n = I32(c->in[0])[0], count = 0;
  long long work = 0;
  for (int32_t k = 2; k < n; ++k) {
    int prime = 1;
    for (int32_t d = 2; d * d <= k && prime; ++d, ++work)
      if (k % d == 0)
        prime = 0;
    count += prime;
  }
  out_alloc(c, AGC_INT32, 0, NULL);
  I32(c->out)[0] = count;
  c->work = work;
}

static void gcd_total(ctx_t *c) {
  const int32_t *a = I32(c->in[0]), *b = I32(c->in[1]);
  int64_t n = c->in[0].shape[0], total = 0;
  long long work = 0;
  for (int64_t i = 0; i < n; ++i) {
    int32_t x = a[i], y = b[i];
    while (y != 0) {
      int32_t r = x % y;
      x = y, y = r, ++work;
    }
    total += x;
  }
  out_alloc(c, AGC_INT64, 0, NULL);
  I64(c->out)[0] = total;
  c->work = work;
}

__attribute__((noinline)) static int32_t twice(int32_t a) { return a + a; }

static void double_(ctx_t *c) {
  static int32_t sink;
  sink = twice(I32(c->in[0])[0]);
  if (!c->out.data)
    out_alloc(c, AGC_INT32, 0, NULL);
  I32(c->out)[0] = sink;
}

static void tanh_loop(ctx_t *c) {
  float x[5];
  memcpy(x, F32(c->in[0]), sizeof x);
  for (;;) {
    float s = 0;
    for (int i = 0; i < 5; ++i)
      s += x[i];
    if (!(s > 1))
      break;
    for (int i = 0; i < 5; ++i)
      x[i] = tanhf(x[i]);
  }
  out_alloc(c, AGC_FLOAT32, 1, (int64_t[]){5});
  memcpy(F32(c->out), x, sizeof x);
}

static void rnn(ctx_t *c) {
  const float *xs = F32(c->in[0]), *wx = F32(c->in[1]), *wh = F32(c->in[2]), *b = F32(c->in[3]);
  int64_t steps = c->in[0].shape[0];
  out_alloc(c, AGC_FLOAT32, 2, (int64_t[]){steps, 32});
  float h[32] = {0}, next[32];
  for (int64_t t = 0; t < steps; ++t) {
    for (int j = 0; j < 32; ++j) {
      float s = 0, r = 0;
      for (int i = 0; i < 16; ++i)
        s += xs[t * 16 + i] * wx[i * 32 + j];
      for (int i = 0; i < 32; ++i)
        r += h[i] * wh[i * 32 + j];
      next[j] = tanhf(s + r + b[j]);
    }
    memcpy(h, next, sizeof h);
    memcpy(F32(c->out) + t * 32, h, sizeof h);
  }
}

static void newton_sqrt(ctx_t *c) {
  int64_t n = c->in[0].shape[0];
  const float *a = F32(c->in[0]);
  out_alloc(c, AGC_FLOAT32, 1, &n);
  float *x = F32(c->out);
  memcpy(x, a, (size_t)n * sizeof(float));
  for (int it = 0; it < 50; ++it)
    for (int64_t i = 0; i < n; ++i)
      x[i] = 0.5f * (x[i] + a[i] / x[i]);
}

static void elementwise_chain(ctx_t *c) {
  int64_t n = c->in[0].shape[0];
  const float *x = F32(c->in[0]);
  out_alloc(c, AGC_FLOAT32, 1, &n);
  float *y = F32(c->out);
#pragma omp parallel for if (threaded)
  for (int64_t i = 0; i < n; ++i) {
    float t = x[i] * 2.0f + 1.0f;
    y[i] = (t > 0 ? t : 0) * 0.5f + x[i];
  }
}

static void binary_chain(ctx_t *c) {
  int64_t n = c->in[0].shape[0];
  const float *x = F32(c->in[0]), *y = F32(c->in[1]);
  out_alloc(c, AGC_FLOAT32, 1, &n);
  float *r = F32(c->out);
#pragma omp parallel for if (threaded)
  for (int64_t i = 0; i < n; ++i)
    r[i] = (x[i] * y[i] + x[i] - y[i]) * 0.5f;
}

static void reduce_total(ctx_t *c) {
  int64_t n = c->in[0].shape[0];
  const float *x = F32(c->in[0]);
  if (threaded) { /* each thread its own vectorized sum (simd: reordered), then their sum */
    float s = 0;
#pragma omp parallel for simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i)
      s += x[i];
    out_alloc(c, AGC_FLOAT32, 0, NULL);
    F32(c->out)[0] = s;
    return;
  }
  float part[16] = {0}; /* 16 partial sums: what lets the compiler vectorize it */
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j)
      part[j] += x[i + j];
  float s = 0;
  for (int j = 0; j < 16; ++j)
    s += part[j];
  for (; i < n; ++i)
    s += x[i];
  out_alloc(c, AGC_FLOAT32, 0, NULL);
  F32(c->out)[0] = s;
}

static void matmul(ctx_t *c) {
  int64_t m = c->in[0].shape[0], k = c->in[0].shape[1], n = c->in[1].shape[1];
  const float *a = F32(c->in[0]), *b = F32(c->in[1]);
  out_alloc(c, AGC_FLOAT32, 2, (int64_t[]){m, n});
  float *r = F32(c->out);
  memset(r, 0, (size_t)(m * n) * sizeof(float));
#pragma omp parallel for if (threaded)
  for (int64_t i = 0; i < m; ++i) /* i-k-j: the inner loop runs along rows of b and r */
    for (int64_t p = 0; p < k; ++p) {
      float s = a[i * k + p];
      for (int64_t j = 0; j < n; ++j)
        r[i * n + j] += s * b[p * n + j];
    }
}

static void softmax(ctx_t *c) {
  int64_t rows = c->in[0].shape[0], cols = c->in[0].shape[1];
  const float *x = F32(c->in[0]);
  out_alloc(c, AGC_FLOAT32, 2, c->in[0].shape);
  float *y = F32(c->out);
#pragma omp parallel for if (threaded)
  for (int64_t r = 0; r < rows; ++r) {
    const float *xr = x + r * cols;
    float *yr = y + r * cols, mx = xr[0], s = 0;
    for (int64_t j = 1; j < cols; ++j)
      mx = xr[j] > mx ? xr[j] : mx;
    for (int64_t j = 0; j < cols; ++j)
      s += yr[j] = expf(xr[j] - mx);
    for (int64_t j = 0; j < cols; ++j)
      yr[j] /= s;
  }
}

static const struct {
  const char *name;
  void (*fn)(ctx_t *);
} workloads[] = {
    {"collatz_total", collatz_total},
    {"count_primes", count_primes},
    {"gcd_total", gcd_total},
    {"double", double_},
    {"double_scalar", double_}, /* C has one way to call a function */
    {"tanh_loop", tanh_loop},
    {"rnn", rnn},
    {"newton_sqrt", newton_sqrt},
    {"elementwise_chain", elementwise_chain},
    {"binary_chain", binary_chain},
    {"reduce_total", reduce_total},
    {"matmul", matmul},
    {"softmax", softmax},
    /* The dynamic-shape variants of programs.py: the same C (it reads its sizes). */
    {"elementwise_chain_dyn", elementwise_chain},
    {"binary_chain_dyn", binary_chain},
    {"reduce_total_dyn", reduce_total},
    {"matmul_dyn", matmul},
    {"matmul_odd_dyn", matmul},
    {"softmax_dyn", softmax},
};

static void (*chosen)(ctx_t *);
static void run(void *c) { chosen(c); }

/* STREAM's four kernels on float32 arrays far larger than the caches (STREAM's rule: each
 * array at least four times the last-level cache, and at least 128 MiB); the best of ten
 * runs of each (five for arrays over 1 GiB), in bytes moved per second as STREAM counts
 * them (no write-allocate). */
static void stream(int all) {
  long llc = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  const int64_t n = llc > (1 << 25) ? (int64_t)llc : 1 << 25; /* floats: 4 x llc bytes */
  const int reps = n > (1 << 28) ? 5 : 10;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
  if (!a || !b || !c)
    bench_die("out of memory", NULL);
#pragma omp parallel for if (all) /* first touch: each thread's pages near it */
  for (int64_t i = 0; i < n; ++i)
    a[i] = 1, b[i] = 2, c[i] = 0;
  const char *names[4] = {"copy", "scale", "add", "triad"};
  const double words[4] = {2, 2, 3, 3};
  double best[4] = {1e30, 1e30, 1e30, 1e30};
  for (int rep = 0; rep < reps; ++rep) {
    for (int k = 0; k < 4; ++k) {
      double t = bench_now();
      switch (k) {
      case 0:
#pragma omp parallel for if (all)
        for (int64_t i = 0; i < n; ++i) c[i] = a[i];
        break;
      case 1:
#pragma omp parallel for if (all)
        for (int64_t i = 0; i < n; ++i) b[i] = 3.0f * c[i];
        break;
      case 2:
#pragma omp parallel for if (all)
        for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
        break;
      case 3:
#pragma omp parallel for if (all)
        for (int64_t i = 0; i < n; ++i) a[i] = b[i] + 3.0f * c[i];
        break;
      }
      t = bench_now() - t;
      if (t < best[k])
        best[k] = t;
    }
  }
  printf("{");
  for (int k = 0; k < 4; ++k)
    printf("%s\"%s\": %.6g", k ? ", " : "", names[k], words[k] * sizeof(float) * (double)n / best[k]);
  printf(", \"array_bytes\": %lld, \"check\": %g}\n", (long long)(n * (int64_t)sizeof(float)),
         (double)a[n / 2] + b[n / 3] + c[n / 5]);
  free(a), free(b), free(c);
}

int main(int argc, char **argv) {
  if (argc == 2 && (strcmp(argv[1], "stream") == 0 || strcmp(argv[1], "stream-all") == 0)) {
    stream(strcmp(argv[1], "stream-all") == 0);
    return 0;
  }
  int work = argc == 4 && strcmp(argv[1], "work") == 0;
  if (work)
    ++argv, --argc;
  else if (argc < 5)
    bench_die("usage: native WORKLOAD DIR WARMUP REPS [BATCH] | native work WORKLOAD DIR | native stream", NULL);
  if (strncmp(argv[1], "omp:", 4) == 0) {
    threaded = 1;
    argv[1] += 4;
  }
  for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; ++i)
    if (strcmp(workloads[i].name, argv[1]) == 0)
      chosen = workloads[i].fn;
  if (!chosen)
    bench_die("no such workload", argv[1]);
  char path[4096];
  ctx_t c = {0};
  snprintf(path, sizeof path, "%s/%s.in", argv[2], argv[1]);
  int n = bench_read(path, c.in);
  if (work) {
    chosen(&c);
    printf("%lld\n", c.work);
  } else {
    bench_time(run, &c, atoi(argv[3]), atoi(argv[4]), argc > 5 ? atol(argv[5]) : 1);
    snprintf(path, sizeof path, "%s/%s.%s.out", argv[2], argv[1], threaded ? "c_omp" : "c");
    bench_write(path, &c.out);
  }
  free(c.out.data);
  for (int i = 0; i < n; ++i)
    free(c.in[i].data);
  return 0;
}
