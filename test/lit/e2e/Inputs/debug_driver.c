/* Calls the tanh loop once, for the debugger test (debug-info.test). */
#include "tanh_loop.h"

#include <stdio.h>

int main(void) {
  float x[5] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
  int64_t shape[1] = {5};
  agc_tensor input = agc_tensor_wrap(AGC_FLOAT32, 1, shape, x), result;
  agc_status status;
  if (tanh_loop_squash(&input, &result, &status) != 0) {
    fprintf(stderr, "error: %s\n", status.message);
    return 1;
  }
  printf("%g\n", ((const float *)result.data)[0]);
  agc_tensor_free(&result);
  return 0;
}
