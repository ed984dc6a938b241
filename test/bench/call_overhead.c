/* The per-call overhead of a compiled scalar function: `double(a)` (a + a on an int32
 * scalar) called through its C entry point, which checks the input, builds the memref
 * descriptors, calls the code and hands over the result; the output freed each time, as a
 * caller must; then through its scalar entry point (control_deps_double_scalar), which
 * takes and gives the values. Built and run by call_overhead.py. */
#include "control_deps.h"

#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  int32_t a = 21;
  agc_tensor x = agc_tensor_wrap(AGC_INT32, 0, NULL, &a), r;
  agc_status status;
  long long sum = 0;
  const int calls = 2000000;
  double best = 1e9;
  for (int round = 0; round < 5; ++round) {
    double start = now();
    for (int i = 0; i < calls; ++i) {
      if (control_deps_double(&x, &r, &status) != AGC_OK)
        return 1;
      sum += *(int32_t *)r.data;
      agc_tensor_free(&r);
    }
    double ns = (now() - start) / calls * 1e9;
    if (ns < best)
      best = ns;
  }
  printf("per call: %.1f ns (best of 5 rounds of %d calls; checksum %lld)\n", best, calls, sum);
  /* The scalar entry point: the value itself, nothing allocated. */
  best = 1e9;
  for (int round = 0; round < 5; ++round) {
    double start = now();
    for (int i = 0; i < calls; ++i) {
      int32_t doubled;
      if (control_deps_double_scalar(a, &doubled, &status) != AGC_OK)
        return 1;
      sum += doubled;
    }
    double ns = (now() - start) / calls * 1e9;
    if (ns < best)
      best = ns;
  }
  printf("per call, scalar entry point: %.1f ns (checksum %lld)\n", best, sum);
  return 0;
}
