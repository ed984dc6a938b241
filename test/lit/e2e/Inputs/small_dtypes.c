/* uint8 and float16 tensors through the C interface. */
#include "small_dtypes.h"

#include <stdio.h>

int main(void) {
  uint8_t pixels[4] = {0, 100, 128, 250};
  int64_t shape[1] = {4};
  agc_tensor in = agc_tensor_wrap(AGC_UINT8, 1, shape, pixels), out;
  agc_status status;
  if (small_dtypes_brighten(&in, &out, &status) != AGC_OK) {
    printf("error: %s\n", status.message);
    return 1;
  }
  const uint8_t *r = out.data;
  printf("brighten: %s %u %u %u %u\n", agc_dtype_name(out.dtype), r[0], r[1], r[2], r[3]);
  agc_tensor_free(&out);

  uint16_t half[2] = {agc_float_to_float16(1.5f), agc_float_to_float16(-2.0f)};
  int64_t two[1] = {2};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT16, 1, two, half);
  if (small_dtypes_half_relu(&x, &out, &status) != AGC_OK) {
    printf("error: %s\n", status.message);
    return 1;
  }
  const uint16_t *h = out.data;
  printf("half_relu: %s %g %g\n", agc_dtype_name(out.dtype), agc_float16_to_float(h[0]),
         agc_float16_to_float(h[1]));
  agc_tensor_free(&out);
  return 0;
}
