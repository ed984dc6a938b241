/* Links two specializations of scale.py (-D k=2.0 and -D k=3.0) into one program. */
#include "thrice.h"
#include "twice.h"

#include <stdio.h>

int main(void) {
  float xs[2] = {1, 2};
  int64_t n = 2;
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, &n, xs), a, b;
  agc_status status;
  if (twice_scale(&x, &a, &status) || thrice_scale(&x, &b, &status))
    return 1;
  const float *p = a.data, *q = b.data;
  printf("%g %g %g %g\n", p[0], p[1], q[0], q[1]);
  agc_tensor_free(&a);
  agc_tensor_free(&b);
  return 0;
}
