/* Calls functions whose large work runs on several threads (e2e/parallel.test): the results
 * are the same bits for every thread count, set with agc_set_num_threads or
 * AGC_NUM_THREADS; a run-time error in a call with parallel work is an error status. */
#include "parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 1000003, ROWS = 300, COLS = 517, M = 130, K = 257, P = 97 };

static int failures;
#define EXPECT(cond, ...)                                                                     \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      printf("FAILED: " __VA_ARGS__);                                                         \
      printf("\n");                                                                           \
      ++failures;                                                                             \
    }                                                                                         \
  } while (0)

/* Every result of one round, as bytes. */
typedef struct {
  float sum, max;
  float *softmax, *product;
} round_t;

static float *ramp(int64_t n, float scale) {
  float *v = malloc(sizeof(float) * (size_t)n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = (float)(i % 1000) * 0.001f * scale + 0.5f;
  return v;
}

static round_t run_round(float *x, float *m, float *a, float *b) {
  round_t r = {0};
  agc_status status = {0};
  int64_t n = N, ms[2] = {ROWS, COLS}, as[2] = {M, K}, bs[2] = {K, P};
  agc_tensor tx = agc_tensor_wrap(AGC_FLOAT32, 1, &n, x);
  agc_tensor sum = {0}, max = {0}, soft = {0}, prod = {0};
  EXPECT(parallel_total(&tx, &sum, &max, &status) == 0, "total: %s", status.message);
  r.sum = *(float *)sum.data;
  r.max = *(float *)max.data;
  agc_tensor tm = agc_tensor_wrap(AGC_FLOAT32, 2, ms, m);
  EXPECT(parallel_softmax(&tm, &soft, &status) == 0, "softmax: %s", status.message);
  r.softmax = malloc(sizeof(float) * ROWS * COLS);
  memcpy(r.softmax, soft.data, sizeof(float) * ROWS * COLS);
  agc_tensor ta = agc_tensor_wrap(AGC_FLOAT32, 2, as, a), tb = agc_tensor_wrap(AGC_FLOAT32, 2, bs, b);
  EXPECT(parallel_matmul(&ta, &tb, &prod, &status) == 0, "matmul: %s", status.message);
  r.product = malloc(sizeof(float) * M * P);
  memcpy(r.product, prod.data, sizeof(float) * M * P);
  agc_tensor_free(&sum);
  agc_tensor_free(&max);
  agc_tensor_free(&soft);
  agc_tensor_free(&prod);
  return r;
}

static int same(round_t a, round_t b) {
  return memcmp(&a.sum, &b.sum, sizeof(float)) == 0 && memcmp(&a.max, &b.max, sizeof(float)) == 0 &&
         memcmp(a.softmax, b.softmax, sizeof(float) * ROWS * COLS) == 0 &&
         memcmp(a.product, b.product, sizeof(float) * M * P) == 0;
}

static void release(round_t r) {
  free(r.softmax);
  free(r.product);
}

int main(void) {
  float *x = ramp(N, 1.0f), *m = ramp(ROWS * COLS, 6.0f), *a = ramp(M * K, 1.0f),
        *b = ramp(K * P, -2.0f);
  printf("threads at start: %d\n", agc_num_threads());
  round_t first = run_round(x, m, a, b);
  printf("sum %.1f, max %.6f, softmax[0][0] %.9g, product[1][2] %.6g\n", first.sum, first.max,
         first.softmax[0], first.product[1 * P + 2]);
  static const int counts[] = {1, 2, 3, 7, 0};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
    agc_set_num_threads(counts[i]);
    round_t again = run_round(x, m, a, b);
    EXPECT(same(first, again), "%d threads: results differ from the first round's", counts[i]);
    release(again);
  }
  agc_set_num_threads(5);
  printf("threads after agc_set_num_threads(5): %d\n", agc_num_threads());
  agc_set_num_threads(0);

  /* A bad index among a million: an error status, on whatever thread count. */
  int64_t n = N;
  int32_t *idx = malloc(sizeof(int32_t) * N);
  for (int64_t i = 0; i < N; ++i)
    idx[i] = (int32_t)((i * 7) % N);
  idx[N / 2] = N + 4;
  agc_tensor tx = agc_tensor_wrap(AGC_FLOAT32, 1, &n, x), ti = agc_tensor_wrap(AGC_INT32, 1, &n, idx);
  agc_tensor out = {0};
  agc_status status = {0};
  int rc = parallel_gather_scaled(&tx, &ti, &out, &status);
  printf("bad index: code %d: %s\n", rc, status.message);
  idx[N / 2] = 3;
  rc = parallel_gather_scaled(&tx, &ti, &out, &status);
  EXPECT(rc == 0 && ((float *)out.data)[N / 2] == x[3] * 2.0f + 1.0f, "good indices");
  agc_tensor_free(&out);

  release(first);
  free(x);
  free(m);
  free(a);
  free(b);
  free(idx);
  if (failures == 0)
    printf("all checks passed\n");
  return failures != 0;
}
