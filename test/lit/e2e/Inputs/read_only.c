/* The caller's tensors are read-only (e2e/read-only.test): a result computed from an
 * input, even one a staged loop starts from and updates in place, never writes over it. */
#include "read_only.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  enum { n = 1000 };
  float a[n], copy[n];
  for (int i = 0; i < n; ++i)
    a[i] = (float)(i + 1);
  memcpy(copy, a, sizeof a);
  int64_t shape[1] = {n};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, shape, a), r = {0};
  agc_tensor count = {0};
  int32_t times = 3;
  agc_status status;
  int failures = 0;

  if (read_only_scaled(&x, &r, &status) != AGC_OK || ((float *)r.data)[9] != 21.0f)
    ++failures, printf("FAILED: scaled\n");
  agc_tensor_free(&r);
  if (read_only_scaled_static(&x, &r, &status) != AGC_OK || ((float *)r.data)[9] != 21.0f)
    ++failures, printf("FAILED: scaled_static\n");
  agc_tensor_free(&r);
  if (read_only_newton_sqrt(&x, &r, &status) != AGC_OK ||
      fabsf(((float *)r.data)[99] - 10.0f) > 1e-5f)
    ++failures, printf("FAILED: newton_sqrt\n");
  agc_tensor_free(&r);
  count = agc_tensor_wrap(AGC_INT32, 0, NULL, &times);
  if (read_only_halve_n_times(&x, &count, &r, &status) != AGC_OK || ((float *)r.data)[7] != 1.0f)
    ++failures, printf("FAILED: halve_n_times\n");
  agc_tensor_free(&r);
  if (memcmp(a, copy, sizeof a) != 0)
    ++failures, printf("FAILED: the input was written\n");
  if (!failures)
    printf("inputs unchanged; all checks passed\n");
  return failures != 0;
}
