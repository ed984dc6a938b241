/* Calls scalar_entry.py's functions through their scalar entry points and their tensor
 * entry points with the same values; prints both, which must agree. */
#include "scalar_entry.h"

#include <stdio.h>
#include <string.h>

static void report(const char *what, int code, const agc_status *status) {
  printf("%s: code %d: %s\n", what, code, code ? status->message : "ok");
}

int main(void) {
  agc_status status;
  agc_tensor r, r2;

  int32_t a = 21, doubled = 0;
  report("double", scalar_entry_double_scalar(a, &doubled, &status), &status);
  agc_tensor ta = agc_tensor_wrap(AGC_INT32, 0, NULL, &a);
  scalar_entry_double(&ta, &r, &status);
  printf("double: %d, tensor %d\n", doubled, *(int32_t *)r.data);
  agc_tensor_free(&r);

  /* The denormal mode: a denormal input is read as 0, as TensorFlow's kernels read it,
   * and the caller's mode is back after the call. */
  float x = 1e-39f, halved = -1;
  report("halve", scalar_entry_halve_scalar(x, &halved, &status), &status);
  agc_tensor tx = agc_tensor_wrap(AGC_FLOAT32, 0, NULL, &x);
  scalar_entry_halve(&tx, &r, &status);
  volatile float tiny = 1e-39f;
  printf("halve: %a, tensor %a; caller's denormals kept: %s\n", halved, *(float *)r.data,
         tiny * 2 > 0 ? "yes" : "no");
  agc_tensor_free(&r);
  x = 3;
  scalar_entry_halve_scalar(x, &halved, &status);
  printf("halve 3: %g\n", halved);

  /* A check that fails: an error status, and the result is not written. */
  int64_t quotient = 99;
  report("divide", scalar_entry_divide_scalar(-7, 2, &quotient, &status), &status);
  printf("divide: %lld\n", (long long)quotient);
  quotient = 99;
  report("divide by zero", scalar_entry_divide_scalar(7, 0, &quotient, &status), &status);
  printf("divide by zero: result still %lld\n", (long long)quotient);
  int64_t n7 = 7, zero = 0;
  agc_tensor t7 = agc_tensor_wrap(AGC_INT64, 0, NULL, &n7), t0 = agc_tensor_wrap(AGC_INT64, 0, NULL, &zero);
  report("divide by zero, tensor", scalar_entry_divide(&t7, &t0, &r, &status), &status);

  bool p = true, q = true;
  report("negate", scalar_entry_negate_scalar(p, &q, &status), &status);
  printf("negate: %d\n", (int)q);

  double s = 0, d = 0;
  report("sum_and_difference", scalar_entry_sum_and_difference_scalar(1.5, 0.25, &s, &d, &status),
         &status);
  printf("sum_and_difference: %g %g\n", s, d);

  /* One value returned twice: one allocation, freed once (valgrind checks it). */
  uint8_t u1 = 0, u2 = 0;
  report("twice", scalar_entry_twice_scalar(200, &u1, &u2, &status), &status);
  printf("twice: %d %d\n", u1, u2);

  /* A NULL output, and no status. */
  report("null output", scalar_entry_sum_and_difference_scalar(1, 2, &s, NULL, &status), &status);
  printf("without status: %d\n", scalar_entry_double_scalar(1, &doubled, NULL));
  (void)r2;
  return 0;
}
