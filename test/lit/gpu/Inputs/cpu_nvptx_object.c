/* Calls a --target=cpu,nvptx object's function: says which version the runtime chose
 * (agc_uses_gpu) and prints the result's values where the CPU version ran (the
 * recording stand-in for libcuda runs no kernel, so a GPU result is not printed). */
#include "agc/runtime.h"
#include "kernels.h"

#include <stdio.h>

int main(void) {
  printf("uses GPU: %d\n", agc_uses_gpu());
  float data[5] = {-2, -0.5f, 0, 1, 2};
  int64_t shape[1] = {5};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, shape, data);
  agc_tensor y;
  agc_status status;
  int code = kernels_chain(&x, &y, &status);
  printf("call: %d %s\n", code, status.message);
  if (code == AGC_OK) {
    if (!agc_uses_gpu())
      for (int i = 0; i < 5; ++i)
        printf("y[%d] = %.6g\n", i, ((float *)y.data)[i]);
    agc_tensor_free(&y);
  }
  return 0;
}
