/*===- blocks.h - The blocks of the running call (private to the runtime) ---===*
 *
 * alloc.c keeps, while a compiled function runs, the list of the blocks it allocated and
 * has not freed, so that a failed check, which leaves the function by longjmp past its
 * frees, can free them all. Starting and ending a call's list is inline here, for
 * runtime.c's calls: a few thread-local loads and stores, not two function calls, on the
 * path of every call.
 *
 *===----------------------------------------------------------------------------------===*/
#ifndef AGC_RUNTIME_BLOCKS_H
#define AGC_RUNTIME_BLOCKS_H

#include "agc/runtime.h"

#include <stddef.h>

/* Right before every block's data: how many bytes it holds, where the memory that
 * malloc gave for it starts, and its neighbours in the running call's list of blocks. */
typedef struct agrt_header {
  size_t size;
  void *base;
  struct agrt_header *prev, *next; /* both NULL when the block is in no call's list */
} agrt_header;

/* The enclosing call's list, saved while a call runs. */
typedef struct agrt_call_blocks {
  agrt_header *blocks;
  int active;
} agrt_call_blocks;

/* The blocks allocated by the call running on this thread and not yet freed, newest
 * first, and whether a call is running. */
extern _Thread_local agrt_header *agrt_call_list __attribute__((visibility("hidden")));
extern _Thread_local int agrt_in_call __attribute__((visibility("hidden")));

static inline void agrt_begin_blocks(agrt_call_blocks *saved) {
  saved->blocks = agrt_call_list;
  saved->active = agrt_in_call;
  agrt_call_list = NULL;
  agrt_in_call = 1;
}

/* The call returned: the blocks still in its list (its results) leave it. */
static inline void agrt_end_blocks_kept(const agrt_call_blocks *saved) {
  agrt_header *h = agrt_call_list;
  while (h) {
    agrt_header *next = h->next;
    h->prev = h->next = NULL;
    h = next;
  }
  agrt_call_list = saved->blocks;
  agrt_in_call = saved->active;
}

/* The call failed: the blocks still in its list are freed, and the enclosing call's list
 * is back (alloc.c). */
void agrt_release_call_blocks(const agrt_call_blocks *saved)
    __attribute__((visibility("hidden")));

/* Whether the block at `p` (what the allocator returned) is CUDA managed memory. */
int agrt_block_is_managed(const void *p) __attribute__((visibility("hidden")));

#endif /* AGC_RUNTIME_BLOCKS_H */
