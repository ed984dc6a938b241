/*===- threads.c - how many threads compiled code's parallel regions use ----------===*
 *
 * Large tensor work runs in OpenMP regions (LLVM's libomp); each region asks
 * agrt_num_threads() for its width when it starts. The count is the process's: what
 * agc_set_num_threads last set, else AGC_NUM_THREADS from the environment (read once),
 * else 0, which leaves libomp's default (OMP_NUM_THREADS, or one thread per core).
 *
 *===--------------------------------------------------------------------------------===*/
#include "agc/runtime.h"

#include <stdatomic.h>
#include <stdlib.h>

/* libomp's (omp.h is clang's header, not on every compiler's path). */
int omp_get_max_threads(void);

/* -1: not decided yet (AGC_NUM_THREADS unread). */
static _Atomic int32_t requested = -1;

static int32_t from_environment(void) {
  const char *text = getenv("AGC_NUM_THREADS");
  if (!text || !*text)
    return 0;
  char *end;
  long n = strtol(text, &end, 10);
  if (*end != '\0' || n < 1 || n > 4096)
    return 0; /* not a count: libomp's default */
  return (int32_t)n;
}

int32_t agrt_num_threads(void) {
  int32_t n = atomic_load_explicit(&requested, memory_order_relaxed);
  if (n >= 0)
    return n;
  int32_t expected = -1;
  n = from_environment();
  if (!atomic_compare_exchange_strong(&requested, &expected, n))
    n = expected; /* set meanwhile (agc_set_num_threads, or another thread) */
  return n;
}

void agc_set_num_threads(int n) {
  atomic_store(&requested, n < 1 ? 0 : (n > 4096 ? 4096 : n));
}

int agc_num_threads(void) {
  int32_t n = agrt_num_threads();
  return n > 0 ? n : omp_get_max_threads();
}
