/* Calls entry_points.py's functions through their entry points with inputs that pass and
 * inputs that fail each check of a signature; prints what comes back. */
#include "entry_points.h"

#include <stdio.h>
#include <string.h>

static void report(const char *what, int code, const agc_status *status) {
  printf("%s: code %d: %s\n", what, code, code ? status->message : "ok");
}

int main(void) {
  agc_status status;
  agc_tensor r;
  int code;

  /* Static shape: the result, then each check failing in turn. */
  float xs[5] = {1, 2, 3, 4, 5};
  int64_t five[1] = {5}, four[1] = {4}, minus[1] = {-1};
  agc_tensor x = agc_tensor_wrap(AGC_FLOAT32, 1, five, xs);
  code = entry_points_scale(&x, &r, &status);
  report("scale", code, &status);
  printf("scale: rank %d shape %lld owner %s data[4] %g\n", (int)r.rank, (long long)r.shape[0],
         r.owner ? "set" : "NULL", ((float *)r.data)[4]);
  agc_tensor_free(&r);
  agc_tensor bad = agc_tensor_wrap(AGC_FLOAT32, 1, four, xs);
  report("scale shape", entry_points_scale(&bad, &r, &status), &status);
  bad = agc_tensor_wrap(AGC_FLOAT64, 1, five, xs);
  report("scale dtype", entry_points_scale(&bad, &r, &status), &status);
  bad = agc_tensor_wrap(AGC_FLOAT32, 0, NULL, xs);
  report("scale rank", entry_points_scale(&bad, &r, &status), &status);
  bad = agc_tensor_wrap(AGC_FLOAT32, 1, five, NULL);
  report("scale no data", entry_points_scale(&bad, &r, &status), &status);
  /* Managed memory (here host memory that says it is) is read as host memory; device
   * memory is refused by CPU code. */
  bad = agc_tensor_wrap(AGC_FLOAT32, 1, five, xs);
  bad.device = AGC_CUDA_MANAGED;
  report("scale managed", entry_points_scale(&bad, &r, &status), &status);
  printf("scale managed: data[4] %g, output device %d\n", ((float *)r.data)[4], (int)r.device);
  agc_tensor_free(&r);
  bad.device = AGC_CUDA;
  report("scale device", entry_points_scale(&bad, &r, &status), &status);
  report("scale null input", entry_points_scale(NULL, &r, &status), &status);
  report("scale null output", entry_points_scale(&x, NULL, &status), &status);
  /* No status to fill: the code alone. */
  printf("scale without status: %d, then %d\n", entry_points_scale(&x, &r, NULL),
         entry_points_scale(&bad, &r, NULL));
  agc_tensor_free(&r);

  /* The same through the arrays of the _v entry point. */
  const agc_tensor *inputs[1] = {&x};
  agc_tensor *outputs[1] = {&r};
  code = entry_points_scale_v(inputs, outputs, &status);
  report("scale_v", code, &status);
  printf("scale_v: data[0] %g\n", ((float *)r.data)[0]);
  agc_tensor_free(&r);
  report("scale_v null inputs", entry_points_scale_v(NULL, outputs, &status), &status);
  report("scale_v null outputs", entry_points_scale_v(inputs, NULL, &status), &status);
  inputs[0] = &bad;
  report("scale_v device", entry_points_scale_v(inputs, outputs, &status), &status);

  /* Dynamic shapes: a 2 x 3 matrix, an empty one without data, a negative dimension. */
  double m[6] = {1, 2, 3, 4, 5, 6}, v[3] = {10, 20, 30};
  int64_t two_three[2] = {2, 3}, zero_three[2] = {0, 3}, three[1] = {3}, bad_dims[2] = {-2, 3};
  agc_tensor mt = agc_tensor_wrap(AGC_FLOAT64, 2, two_three, m);
  agc_tensor vt = agc_tensor_wrap(AGC_FLOAT64, 1, three, v);
  code = entry_points_shift_rows(&mt, &vt, &r, &status);
  report("shift_rows", code, &status);
  printf("shift_rows: shape %lldx%lld last %g\n", (long long)r.shape[0], (long long)r.shape[1],
         ((double *)r.data)[5]);
  agc_tensor_free(&r);
  agc_tensor empty = agc_tensor_wrap(AGC_FLOAT64, 2, zero_three, NULL);
  code = entry_points_shift_rows(&empty, &vt, &r, &status);
  report("shift_rows empty", code, &status);
  printf("shift_rows empty: shape %lldx%lld\n", (long long)r.shape[0], (long long)r.shape[1]);
  agc_tensor_free(&r);
  agc_tensor negative = agc_tensor_wrap(AGC_FLOAT64, 2, bad_dims, m);
  report("shift_rows negative", entry_points_shift_rows(&negative, &vt, &r, &status), &status);
  agc_tensor vminus = agc_tensor_wrap(AGC_FLOAT64, 1, minus, v);
  report("shift_rows negative vector", entry_points_shift_rows(&mt, &vminus, &r, &status),
         &status);

  /* A scalar; no inputs. */
  int64_t n = 12;
  agc_tensor nt = agc_tensor_wrap(AGC_INT64, 0, NULL, &n);
  code = entry_points_square(&nt, &r, &status);
  report("square", code, &status);
  printf("square: rank %d value %lld\n", (int)r.rank, (long long)*(int64_t *)r.data);
  agc_tensor_free(&r);
  code = entry_points_three(&r, &status);
  report("three", code, &status);
  printf("three: %d %d %d\n", ((int16_t *)r.data)[0], ((int16_t *)r.data)[1],
         ((int16_t *)r.data)[2]);
  agc_tensor_free(&r);

  /* A check inside the call fails: an error status, the output untouched. */
  int32_t xi[3] = {7, 8, 9}, i = 2;
  agc_tensor xt = agc_tensor_wrap(AGC_INT32, 1, three, xi), it = agc_tensor_wrap(AGC_INT32, 0, NULL, &i);
  code = entry_points_pick(&xt, &it, &r, &status);
  report("pick", code, &status);
  printf("pick: %d\n", *(int32_t *)r.data);
  agc_tensor_free(&r);
  i = 3;
  memset(&r, 0, sizeof r);
  report("pick out of range", entry_points_pick(&xt, &it, &r, &status), &status);
  printf("pick out of range: output data %s\n", r.data ? "set" : "NULL");

  /* The general path: two results, strings. */
  agc_tensor s1, s2;
  code = entry_points_sum_and_size(&x, &s1, &s2, &status);
  report("sum_and_size", code, &status);
  printf("sum_and_size: %g %d\n", *(float *)s1.data, *(int32_t *)s2.data);
  agc_tensor_free(&s1);
  agc_tensor_free(&s2);
  agc_string word = {"fast", 4};
  agc_tensor wt = agc_tensor_wrap(AGC_STRING, 0, NULL, &word);
  code = entry_points_loud(&wt, &r, &status);
  report("loud", code, &status);
  printf("loud: %.*s\n", (int)((agc_string *)r.data)->size, ((agc_string *)r.data)->data);
  agc_tensor_free(&r);
  return 0;
}
