/* agc's allocator (runtime/lib/alloc.c): large blocks freed are kept and reused, small
 * ones are not, alignment is honoured, the limit and the release work; and a compiled
 * function called twice on a large tensor gets the first call's output memory back
 * after agc_tensor_free, instead of fresh pages. Prints "FAIL: ..." for each failed check. */
#include "agc/runtime.h"
#include "big_scale.h"

#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      printf("FAIL: %s (line %d)\n", #cond, __LINE__);                                 \
      ++failures;                                                                      \
    }                                                                                  \
  } while (0)

/* Allocates `n` (at most 64) blocks of `size` bytes, then frees them all. */
static void small_blocks(int n, size_t size) {
  void *blocks[64];
  for (int i = 0; i < n; ++i)
    blocks[i] = agrt_alloc(size);
  for (int i = 0; i < n; ++i)
    agrt_free(blocks[i]);
}

static void *small_blocks_then_exit(void *unused) {
  small_blocks(8, 16);
  return unused;
}

int main(void) {
  const size_t big = (size_t)8 << 20, small = 1000;

  /* A large block comes back; the cache counts it until it is taken again. */
  char *a = agrt_alloc(big);
  CHECK(a != NULL && (uintptr_t)a % 64 == 0);
  memset(a, 1, big);
  agrt_free(a);
  CHECK(agc_cached_memory() == big);
  char *b = agrt_alloc(big);
  CHECK(b == a);
  CHECK(agc_cached_memory() == 0);
  /* A smaller request (more than half) reuses it too; a much smaller one does not. */
  agrt_free(b);
  char *c = agrt_alloc(big - 4096);
  CHECK(c == a);
  agrt_free(c);
  char *d = agrt_alloc(big / 4);
  CHECK(d != a);
  agrt_free(d);

  /* Small blocks go back to malloc at once. */
  agc_release_memory();
  void *s = agrt_alloc(small);
  agrt_free(s);
  CHECK(agc_cached_memory() == 0);

  /* Blocks of 64 bytes and less (a scalar result, a loop's tiny tensor) are kept by the
   * thread that frees them, and handed out again: the next one is the same memory. */
  void *t1 = agrt_alloc(4);
  CHECK(t1 != NULL && (uintptr_t)t1 % 64 == 0);
  agrt_free(t1);
  void *t2 = agrt_aligned_alloc(16, 64);
  CHECK(t2 == t1);
  void *t3 = agrt_alloc(8); /* none kept now: a fresh one */
  CHECK(t3 != t1 && (uintptr_t)t3 % 64 == 0);
  memset(t2, 7, 64);
  memset(t3, 9, 8);
  agrt_free(t2);
  agrt_free(t3);
  void *t4 = agrt_aligned_alloc(128, 8); /* more alignment than kept blocks have */
  CHECK((uintptr_t)t4 % 128 == 0);
  agrt_free(t4);
  CHECK(agc_cached_memory() == 0); /* the large-block cache does not count them */
  /* More than the thread keeps (16): the rest go back to malloc (valgrind.test checks
   * that nothing is lost, at exit included). */
  small_blocks(40, 32);

  /* A thread that frees small blocks and ends gives them back to malloc (valgrind sees no
   * block lost). */
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, small_blocks_then_exit, NULL) == 0);
  CHECK(pthread_join(thread, NULL) == 0);

  /* Alignment: what MLIR asks for (64, 128, 4096). */
  size_t aligns[] = {16, 64, 128, 4096};
  for (int i = 0; i < 4; ++i) {
    void *p = agrt_aligned_alloc(aligns[i], big);
    CHECK((uintptr_t)p % aligns[i] == 0);
    agrt_free(p);
    void *q = agrt_aligned_alloc(aligns[i], small);
    CHECK((uintptr_t)q % aligns[i] == 0);
    agrt_free(q);
  }
  /* A cached block that is not aligned enough is not handed out. */
  agc_release_memory();
  void *e = agrt_aligned_alloc(64, big);
  int aligned4k = (uintptr_t)e % 4096 == 0;
  agrt_free(e);
  void *f = agrt_aligned_alloc(4096, big);
  CHECK((uintptr_t)f % 4096 == 0);
  CHECK(aligned4k || f != e);
  agrt_free(f);

  /* Release and limit. */
  CHECK(agc_release_memory() > 0);
  CHECK(agc_cached_memory() == 0);
  agc_set_memory_cache_limit(0);
  void *g = agrt_alloc(big);
  agrt_free(g);
  CHECK(agc_cached_memory() == 0);
  agc_set_memory_cache_limit(big);
  void *h1 = agrt_alloc(big), *h2 = agrt_alloc(big);
  agrt_free(h1);
  agrt_free(h2); /* over the limit: released */
  CHECK(agc_cached_memory() == big);
  agc_set_memory_cache_limit((size_t)1 << 30);
  agc_release_memory();

  /* A compiled function: the second call's output is the first call's memory. */
  enum { n = 1 << 20 };
  float *x = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    x[i] = (float)(i % 7) * 0.25f;
  int64_t shape[1] = {n};
  agc_tensor in = agc_tensor_wrap(AGC_FLOAT32, 1, shape, x), out1, out2;
  agc_status status;
  CHECK(big_scale_scale(&in, &out1, &status) == AGC_OK);
  float first = ((float *)out1.data)[3];
  void *data1 = out1.data;
  agc_tensor_free(&out1);
  CHECK(agc_cached_memory() >= (size_t)n * sizeof(float));
  CHECK(big_scale_scale(&in, &out2, &status) == AGC_OK);
  CHECK(out2.data == data1);
  CHECK(((float *)out2.data)[3] == first);
  printf("scale[3] = %.2f\n", first);
  agc_tensor_free(&out2);
  free(x);

  if (failures == 0)
    printf("all checks passed\n");
  return failures != 0;
}
