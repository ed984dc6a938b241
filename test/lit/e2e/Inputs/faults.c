/* Calls functions of faults.py whose checks fail, many times: each call must return an
 * error status with the message, and free what it allocated (valgrind counts leaks). */
#include "faults.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  float xs[1000];
  for (int k = 0; k < 1000; ++k)
    xs[k] = (float)k / 1000.0f;
  int64_t n = 1000, one = 2;
  int32_t bad = 5000, a[2] = {7, 9}, b[2] = {2, 0}, size = 9;
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, &n, xs);
  agc_tensor i = agc_tensor_wrap(AGC_INT32, 0, NULL, &bad);
  agc_tensor ta = agc_tensor_wrap(AGC_INT32, 1, &one, a);
  agc_tensor tb = agc_tensor_wrap(AGC_INT32, 1, &one, b);
  agc_tensor tn = agc_tensor_wrap(AGC_INT32, 0, NULL, &size);
  agc_tensor r0, r1;
  agc_status status;
  int failures = 0;
  for (int round = 0; round < 50; ++round) {
    failures += faults_pick(&x, &i, &r0, &status) == AGC_RUNTIME_ERROR;
    failures += faults_divide(&ta, &tb, &r0, &r1, &status) == AGC_RUNTIME_ERROR;
    failures += faults_grow(&tn, &r0, &status) == AGC_RUNTIME_ERROR;
  }
  printf("%d failed calls; last: %s\n", failures, status.message);
  /* NULL arrays and NULL tensors are errors of the call, not crashes. */
  printf("null inputs: %d\n", faults_pick_v(NULL, NULL, &status));
  printf("%s\n", status.message);
  printf("null tensor: %d\n", faults_pick(NULL, &i, &r0, &status));
  printf("%s\n", status.message);
  return 0;
}
