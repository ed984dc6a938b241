/* A C program that links two agc-compiled modules with agc's runtime and calls them:
 * the tanh loop, and the control dependencies example (module state, a Python-valued
 * specialization, polymorphic double); then the error statuses of wrong inputs. */
#include "tanh_loop.h"
#include "control_deps.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define EXPECT(cond, ...)                                                                  \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      printf("FAIL line %d: ", __LINE__);                                                  \
      printf(__VA_ARGS__);                                                                 \
      printf("\n");                                                                        \
      ++failures;                                                                          \
    }                                                                                      \
  } while (0)

int main(void) {
  agc_status status;

  /* squash: the tanh loop on float32[5]. */
  float xs[5] = {1, 2, 3, 4, 5};
  int64_t five[1] = {5};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, five, xs), y;
  int code = tanh_loop_squash(&x, &y, &status);
  EXPECT(code == AGC_OK, "squash: %s", status.message);
  if (code == AGC_OK) {
    float sum = 0;
    for (int i = 0; i < 5; ++i)
      sum += ((float *)y.data)[i];
    EXPECT(y.dtype == AGC_FLOAT32 && y.rank == 1 && y.shape[0] == 5, "squash: result type");
    EXPECT(sum <= 1.0f && sum > 0.99f, "squash: the loop stops once the sum is <= 1 (%g)", sum);
    printf("squash: sum %.6f\n", sum);
    agc_tensor_free(&y);
    agc_tensor_free(&y); /* twice: nothing */
  }

  /* my_function(x) for a scalar float32, both branches. */
  float two = 2, neg = -3;
  agc_tensor s = agc_tensor_wrap(AGC_FLOAT32, 0, NULL, &two), r;
  EXPECT(control_deps_my_function(&s, &r, &status) == AGC_OK, "my_function: %s", status.message);
  EXPECT(*(float *)r.data == 1.0f, "my_function(2) == 1, not %g", *(float *)r.data);
  agc_tensor_free(&r);
  s = agc_tensor_wrap(AGC_FLOAT32, 0, NULL, &neg);
  EXPECT(control_deps_my_function(&s, &r, &status) == AGC_OK, "my_function: %s", status.message);
  EXPECT(*(float *)r.data == 9.0f, "my_function(-3) == 9, not %g", *(float *)r.data);
  agc_tensor_free(&r);

  /* double for int32. */
  int32_t twentyone = 21;
  agc_tensor a = agc_tensor_wrap(AGC_INT32, 0, NULL, &twentyone);
  EXPECT(control_deps_double(&a, &r, &status) == AGC_OK, "double: %s", status.message);
  EXPECT(*(int32_t *)r.data == 42, "double(21) == 42");
  agc_tensor_free(&r);

  /* assign_then_add(1.0, 2.0) == 10.0 (specialized with -D), then again: 2.0 * 6.0 = 12
   * for a, b = 6 + 12 = 18, a + b = 30; model_init resets the state to give 10 again. */
  EXPECT(control_deps_assign_then_add(&r, &status) == AGC_OK, "assign_then_add: %s", status.message);
  EXPECT(*(float *)r.data == 10.0f, "assign_then_add == 10, not %g", *(float *)r.data);
  agc_tensor_free(&r);
  EXPECT(control_deps_assign_then_add(&r, &status) == AGC_OK, "assign_then_add: %s", status.message);
  EXPECT(*(float *)r.data == 30.0f, "assign_then_add again == 30, not %g", *(float *)r.data);
  agc_tensor_free(&r);
  control_deps_init();
  EXPECT(control_deps_assign_then_add(&r, &status) == AGC_OK, "assign_then_add: %s", status.message);
  EXPECT(*(float *)r.data == 10.0f, "after init == 10, not %g", *(float *)r.data);
  agc_tensor_free(&r);

  /* Wrong inputs: an error status with a message, no output, no abort. */
  int64_t four[1] = {4};
  agc_tensor bad = agc_tensor_wrap(AGC_FLOAT32, 1, four, xs);
  code = tanh_loop_squash(&bad, &y, &status);
  EXPECT(code == AGC_INVALID_ARGUMENT, "a shape (4,) for (5,) is refused");
  printf("wrong shape: %s\n", status.message);
  int32_t ints[5] = {0};
  bad = agc_tensor_wrap(AGC_INT32, 1, five, ints);
  code = tanh_loop_squash(&bad, &y, &status);
  EXPECT(code == AGC_INVALID_ARGUMENT, "an int32 tensor for float32 is refused");
  printf("wrong dtype: %s\n", status.message);
  code = tanh_loop_squash(NULL, &y, NULL);
  EXPECT(code == AGC_INVALID_ARGUMENT, "a NULL input is refused (and a NULL status is fine)");

  control_deps_teardown();
  tanh_loop_teardown();
  printf("%s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
