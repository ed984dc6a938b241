/* Compiled code runs as TensorFlow's kernels do, with denormals flushed to zero (halving
 * the smallest normal float gives 0, not a denormal), and the caller's floating-point
 * mode is back when the call returns: here, the caller keeps its denormals. */
#include "agc/runtime.h"
#include "halve.h"

#include <float.h>
#include <stdio.h>
#include <xmmintrin.h>

int main(void) {
  unsigned before = _mm_getcsr();
  float x[2] = {FLT_MIN, 1.0f};
  int64_t shape[1] = {2};
  agc_tensor in = agc_tensor_wrap(AGC_FLOAT32, 1, shape, x), out;
  agc_status status;
  if (halve_halve(&in, &out, &status) != AGC_OK) {
    printf("FAIL: %s\n", status.message);
    return 1;
  }
  /* The control bits (the exception flags the call raised stay raised). */
  int restored = (_mm_getcsr() & ~0x3Fu) == (before & ~0x3Fu);
  const float *y = out.data;
  volatile float caller = FLT_MIN;
  printf("compiled: %g %g\n", y[0], y[1]);
  printf("caller: %s\n", caller / 2.0f > 0 ? "denormal kept" : "flushed");
  printf("mode restored: %s\n", restored ? "yes" : "no");
  agc_tensor_free(&out);
  return 0;
}
