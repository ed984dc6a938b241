/* complex64 tensors through the C interface: C's float _Complex is the element. */
#include "complex_signal.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>

int main(void) {
  float x[4] = {1, 0, -1, 0};
  int64_t shape[1] = {4};
  agc_tensor in = agc_tensor_wrap(AGC_FLOAT32, 1, shape, x), out;
  agc_status status;
  if (complex_signal_dft(&in, &out, &status) != AGC_OK) {
    printf("error: %s\n", status.message);
    return 1;
  }
  const float _Complex *X = out.data;
  printf("dft: %s %zu bytes each:", agc_dtype_name(out.dtype), agc_dtype_size(out.dtype));
  for (int k = 0; k < 4; ++k)
    printf(" (%.3f, %.3f)", fabsf(crealf(X[k])) < 1e-5f ? 0.0f : crealf(X[k]),
           fabsf(cimagf(X[k])) < 1e-5f ? 0.0f : cimagf(X[k]));
  printf("\n");
  agc_tensor_free(&out);

  float _Complex c = 0.3f + 0.5f * I;
  int32_t steps = 100;
  agc_tensor tc = agc_tensor_wrap(AGC_COMPLEX64, 0, NULL, &c);
  agc_tensor ts = agc_tensor_wrap(AGC_INT32, 0, NULL, &steps);
  if (complex_signal_escape_time(&tc, &ts, &out, &status) != AGC_OK) {
    printf("error: %s\n", status.message);
    return 1;
  }
  printf("escape_time(0.3+0.5i): %d\n", *(const int32_t *)out.data);
  agc_tensor_free(&out);
  c = 1.0f + 1.0f * I;
  if (complex_signal_escape_time(&tc, &ts, &out, &status) != AGC_OK) {
    printf("error: %s\n", status.message);
    return 1;
  }
  printf("escape_time(1+1i): %d\n", *(const int32_t *)out.data);
  agc_tensor_free(&out);
  return 0;
}
