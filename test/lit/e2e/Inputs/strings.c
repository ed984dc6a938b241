/* Calls agc-compiled functions on string tensors through the C interface: agc_string
 * inputs point to the caller's bytes; outputs own theirs until agc_tensor_free. */
#include "string_double.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  agc_string words[3] = {{"ab", 2}, {"", 0}, {"x\0y", 3}}; /* bytes, not C strings */
  int64_t shape[1] = {3};
  agc_tensor in = agc_tensor_wrap(AGC_STRING, 1, shape, words);
  agc_tensor out;
  agc_status status;
  if (string_double_double(&in, &out, &status) != AGC_OK) {
    printf("error: %s\n", status.message);
    return 1;
  }
  const agc_string *r = out.data;
  printf("double: dtype %s, %lld strings\n", agc_dtype_name(out.dtype), (long long)out.shape[0]);
  for (int64_t i = 0; i < out.shape[0]; ++i) {
    printf("  %lld bytes:", (long long)r[i].size);
    for (int64_t k = 0; k < r[i].size; ++k)
      printf(" %02x", (unsigned char)r[i].data[k]);
    printf("\n");
  }
  agc_tensor_free(&out);

  agc_string name = {"agc", 3};
  int32_t n = 7;
  agc_tensor name_t = agc_tensor_wrap(AGC_STRING, 0, NULL, &name);
  agc_tensor n_t = agc_tensor_wrap(AGC_INT32, 0, NULL, &n);
  if (string_double_label(&name_t, &n_t, &out, &status) != AGC_OK) {
    printf("error: %s\n", status.message);
    return 1;
  }
  r = out.data;
  printf("label: %.*s (NUL after it: %d)\n", (int)r->size, r->data, r->data[r->size] == '\0');
  agc_tensor_free(&out);

  /* A string where an int32 goes: the signature's error. */
  if (string_double_label(&n_t, &n_t, &out, &status) != AGC_OK)
    printf("wrong dtype: %s\n", status.message);
  return 0;
}
