/* What the two C benchmark programs share (driver.c runs agc-compiled code, native.c the
 * hand-written C versions): the tensor files bench.py writes and reads, a clock, and the
 * timing loop.
 *
 * A tensor file holds tensors one after another, each as: int32 dtype (agc_dtype's
 * values), int32 rank, int64 dims[rank], then the elements, row-major, little-endian. */
#ifndef AGC_BENCH_IO_H
#define AGC_BENCH_IO_H

#include "agc/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_TENSORS 8

static double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void bench_die(const char *what, const char *detail) {
  fprintf(stderr, "bench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(1);
}

/* Reads every tensor of `path` into `out` (data malloc'ed); returns how many. */
static int bench_read(const char *path, agc_tensor *out) {
  FILE *f = fopen(path, "rb");
  if (!f)
    bench_die("cannot open", path);
  int n = 0;
  int32_t head[2];
  while (fread(head, sizeof head, 1, f) == 1) {
    if (n == BENCH_MAX_TENSORS || head[1] < 0 || head[1] > AGC_MAX_RANK)
      bench_die("malformed tensor file", path);
    int64_t shape[AGC_MAX_RANK];
    if (head[1] && fread(shape, sizeof(int64_t), (size_t)head[1], f) != (size_t)head[1])
      bench_die("truncated tensor file", path);
    agc_tensor t = agc_tensor_wrap((agc_dtype)head[0], head[1], shape, NULL);
    size_t bytes = (size_t)agc_tensor_size(&t) * agc_dtype_size(t.dtype);
    t.data = malloc(bytes ? bytes : 1);
    if (!t.data || fread(t.data, 1, bytes, f) != bytes)
      bench_die("truncated tensor file", path);
    out[n++] = t;
  }
  fclose(f);
  return n;
}

/* Writes `t` to `path`. */
static void bench_write(const char *path, const agc_tensor *t) {
  FILE *f = fopen(path, "wb");
  if (!f)
    bench_die("cannot write", path);
  int32_t head[2] = {(int32_t)t->dtype, t->rank};
  size_t bytes = (size_t)agc_tensor_size(t) * agc_dtype_size(t->dtype);
  if (fwrite(head, sizeof head, 1, f) != 1 ||
      fwrite(t->shape, sizeof(int64_t), (size_t)t->rank, f) != (size_t)t->rank ||
      fwrite(t->data, 1, bytes, f) != bytes || fclose(f) != 0)
    bench_die("cannot write", path);
}

/* The least time a warm-up (warmup > 0) runs for. A thread team on these VMs reaches
 * its speed only some 100 ms after it starts (an OpenMP sum of 10^7 floats on 2 cores
 * takes one core's 1.4 ms per run, then 0.7 ms: the same with OMP_PROC_BIND=spread, so
 * not the threads' placement; a serial loop is at its speed from the first run), and
 * the Python peers' pools are started long before they are timed. */
#define BENCH_WARMUP_SECONDS 0.3

/* Prints {"times": [...]}: the seconds of each of `reps` runs of `run(ctx)` after `warmup`
 * runs, and more until BENCH_WARMUP_SECONDS have passed. When `batch` > 1 each run is
 * `batch` calls and its time is per call. */
static void bench_time(void (*run)(void *), void *ctx, int warmup, int reps, long batch) {
  double start = bench_now();
  for (int i = 0; i < warmup || (warmup > 0 && bench_now() - start < BENCH_WARMUP_SECONDS);
       ++i)
    for (long j = 0; j < batch; ++j)
      run(ctx);
  printf("{\"times\": [");
  for (int i = 0; i < reps; ++i) {
    double start = bench_now();
    for (long j = 0; j < batch; ++j)
      run(ctx);
    printf("%s%.9g", i ? ", " : "", (bench_now() - start) / (double)batch);
  }
  printf("]}\n");
}

#endif /* AGC_BENCH_IO_H */
