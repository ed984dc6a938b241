/* Calls an nvptx object's function (a staged loop around a kernel) twice with agc's GPU
 * runtime: prints each call's status, the result's shape and where its data is (the
 * recording stand-in for libcuda runs no kernel, so the values are not checked here). */
#include "agc/runtime.h"
#include "kernels.h"

#include <stdio.h>

int main(void) {
  float data[5] = {1, 2, 3, 4, 5};
  int64_t shape[1] = {5};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, shape, data);
  for (int call = 0; call < 2; ++call) {
    agc_tensor y;
    agc_status status;
    int code = kernels_chain(&x, &y, &status);
    printf("call %d: %d %s\n", call, code, status.message);
    if (code == AGC_OK) {
      printf("result: rank %d, shape [%lld], data %p\n", y.rank, (long long)y.shape[0], y.data);
      agc_tensor_free(&y);
    }
  }
  return 0;
}
