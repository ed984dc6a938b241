/* Calls every other seed example through its C entry point (for valgrind.test): the
 * loops of the guide, the dynamic RNN and concat_with_padding, fizzbuzz, next_collatz. */
#include "collatz.h"
#include "fizzbuzz.h"
#include "loops.h"
#include "rnn.h"

#include <stdio.h>

static int failures = 0;

static void expect_int(const char *what, int code, agc_tensor *r, int32_t want, agc_status *s) {
  if (code != AGC_OK) {
    printf("FAIL %s: %s\n", what, s->message);
    ++failures;
    return;
  }
  int32_t got = *(int32_t *)r->data;
  if (got != want) {
    printf("FAIL %s: %d, not %d\n", what, (int)got, (int)want);
    ++failures;
  }
  agc_tensor_free(r);
}

int main(void) {
  agc_status s;
  agc_tensor r;
  expect_int("for_in_range", loops_for_in_range(&r, &s), &r, 10, &s);
  expect_int("for_in_tfrange", loops_for_in_tfrange(&r, &s), &r, 10, &s);
  expect_int("while_py_cond", loops_while_py_cond(&r, &s), &r, 0, &s);
  expect_int("while_tf_cond", loops_while_tf_cond(&r, &s), &r, 0, &s);
  int32_t five = 5;
  agc_tensor x = agc_tensor_wrap(AGC_INT32, 0, NULL, &five);
  expect_int("while_tf_true_tf_break", loops_while_tf_true_tf_break(&x, &r, &s), &r, 0, &s);
  expect_int("tf_for_tf_break", loops_tf_for_tf_break(&r, &s), &r, 3, &s);

  float input[2][3][4], state[2][4];
  for (int i = 0; i < 24; ++i)
    ((float *)input)[i] = (float)i;
  for (int i = 0; i < 8; ++i)
    ((float *)state)[i] = 1.0f;
  int64_t in_shape[3] = {2, 3, 4}, state_shape[2] = {2, 4};
  agc_tensor a = agc_tensor_wrap(AGC_FLOAT32, 3, in_shape, input);
  agc_tensor b = agc_tensor_wrap(AGC_FLOAT32, 2, state_shape, state);
  if (rnn_dynamic_rnn(&a, &b, &r, &s) != AGC_OK || r.shape[0] != 2 || r.shape[1] != 3) {
    printf("FAIL dynamic_rnn: %s\n", s.message);
    ++failures;
  } else {
    /* the last state of batch 0: 1 + (0+1+2+3...): input rows 0, 1, 2 summed */
    printf("dynamic_rnn[0][2][0] = %g\n", ((float *)r.data)[8]);
    agc_tensor_free(&r);
  }
  if (rnn_concat_with_padding(&r, &s) != AGC_OK) {
    printf("FAIL concat_with_padding: %s\n", s.message);
    ++failures;
  } else {
    float sum = 0;
    for (int i = 0; i < 50; ++i)
      sum += ((float *)r.data)[i];
    printf("concat_with_padding sum = %g\n", sum);
    agc_tensor_free(&r);
  }

  int32_t fifteen = 15;
  agc_tensor n = agc_tensor_wrap(AGC_INT32, 0, NULL, &fifteen);
  if (fizzbuzz_fizzbuzz(&n, &s) != AGC_OK) {
    printf("FAIL fizzbuzz: %s\n", s.message);
    ++failures;
  }

  int32_t xs[4] = {1, 6, 7, -3};
  int64_t four[1] = {4};
  agc_tensor v = agc_tensor_wrap(AGC_INT32, 1, four, xs);
  if (collatz_next_collatz(&v, &r, &s) != AGC_OK) {
    printf("FAIL next_collatz: %s\n", s.message);
    ++failures;
  } else {
    int32_t *o = r.data;
    printf("next_collatz = %d %d %d %d\n", o[0], o[1], o[2], o[3]);
    agc_tensor_free(&r);
  }
  printf("%s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
