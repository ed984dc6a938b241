/* The example project's C program: calls the two compiled functions, model_settle (a
 * staged loop) and counter_accumulate (a tf.Variable), through agc's C interface. */
#include <stdio.h>

#include "counter.h"
#include "model.h"

int main(void) {
  float xs[4] = {3.0f, -2.0f, 1.5f, 0.25f};
  int64_t shape[1] = {4};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, shape, xs);
  agc_tensor settled, steps, total;
  agc_status status;

  if (model_settle(&x, &settled, &steps, &status) != AGC_OK) {
    fprintf(stderr, "model_settle: %s\n", status.message);
    return 1;
  }
  const float *out = (const float *)settled.data;
  printf("settle:");
  for (int64_t i = 0; i < agc_tensor_size(&settled); ++i)
    printf(" %.6g", out[i]);
  printf(" after %d steps\n", *(const int32_t *)steps.data);
  agc_tensor_free(&settled);
  agc_tensor_free(&steps);

  /* The variable keeps its value between calls. */
  for (int call = 0; call < 2; ++call) {
    if (counter_accumulate(&x, &total, &status) != AGC_OK) {
      fprintf(stderr, "counter_accumulate: %s\n", status.message);
      return 1;
    }
    printf("accumulate: %.6g\n", *(const float *)total.data);
    agc_tensor_free(&total);
  }
  return 0;
}
