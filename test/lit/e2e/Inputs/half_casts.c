/* half_casts.py's conversions through the C interface: each result printed as floats. */
#include "half_casts.h"

#include <math.h>
#include <stdio.h>

typedef int (*convert_f)(const agc_tensor *, agc_tensor *, agc_status *);

static int show(const char *name, convert_f f, agc_dtype dtype, int64_t n, void *data) {
  int64_t shape[1] = {n};
  agc_tensor in = agc_tensor_wrap(dtype, 1, shape, data), out;
  agc_status status;
  if (f(&in, &out, &status) != AGC_OK) {
    printf("%s: error: %s\n", name, status.message);
    return 1;
  }
  const uint16_t *bits = out.data;
  printf("%s: %s", name, agc_dtype_name(out.dtype));
  for (int64_t i = 0; i < n; ++i)
    printf(" %.9g", out.dtype == AGC_BFLOAT16 ? agc_bfloat16_to_float(bits[i])
                                              : agc_float16_to_float(bits[i]));
  printf("\n");
  agc_tensor_free(&out);
  return 0;
}

int main(void) {
  float f[5] = {1.5f, 0.1f, 70000.0f, 1e30f, NAN};
  /* Just above the halfway points of bfloat16 (1 + 2**-8) and of float32: rounded to
     float32 first, as TensorFlow (Eigen) converts a double, they are ties, to even. */
  double d[3] = {1.0 + 0x1p-8 + 0x1p-40, 0.1, -1e300};
  uint16_t b[3] = {agc_float_to_bfloat16(1.5f), agc_float_to_bfloat16(-2.25f),
                   agc_float_to_bfloat16(100.0f)};
  return show("to_bfloat16", half_casts_to_bfloat16, AGC_FLOAT32, 5, f) |
         show("to_float16", half_casts_to_float16, AGC_FLOAT32, 5, f) |
         show("double_to_bfloat16", half_casts_double_to_bfloat16, AGC_FLOAT64, 3, d) |
         show("bfloat16_where", half_casts_bfloat16_where, AGC_BFLOAT16, 3, b);
}
