/*===- blocks.h - The blocks of the running call (private to the runtime) ---===*
 *
 * alloc.c keeps, while a compiled function runs, the list of the blocks it allocated and
 * has not freed, so that a failed check, which leaves the function by longjmp past its
 * frees, can free them all. Starting and ending a call's list is inline here, for
 * runtime.c's calls: a few loads and stores of the thread's state, not two function
 * calls, on the path of every call.
 *
 *===----------------------------------------------------------------------------------===*/
#ifndef AGC_RUNTIME_BLOCKS_H
#define AGC_RUNTIME_BLOCKS_H

#include "agc/runtime.h"

#include <setjmp.h>
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

/* What a thread's calls keep: in one thread-local object, so that a function of the
 * shared library, where each thread-local variable is found through a call of
 * __tls_get_addr, finds all of it with one (agrt_self). The running call's blocks
 * (allocated and not yet freed, newest first) and whether a call runs; the thread's
 * kept small blocks (alloc.c); the running call's way out and the string arena as it
 * was (runtime.c). */
enum { AGRT_SMALL_KEPT = 16 };
typedef struct agrt_thread_state {
  agrt_header *call_list;
  int in_call;
  int small_count;
  int small_registered; /* this thread's exit frees its kept blocks */
  agrt_header *small_kept[AGRT_SMALL_KEPT];
  jmp_buf *current_call;
  struct string_block *string_arena;
} agrt_thread_state;

extern _Thread_local agrt_thread_state agrt_thread __attribute__((visibility("hidden")));

/* This thread's state: taken once in a function, used through the pointer. (The empty
 * asm hides where the pointer comes from: the compiler would otherwise take the address
 * again, a call of __tls_get_addr, at every use, as it takes the address of a global.) */
static inline agrt_thread_state *agrt_self(void) {
  agrt_thread_state *t = &agrt_thread;
  __asm__("" : "+r"(t));
  return t;
}

static inline void agrt_begin_blocks(agrt_thread_state *t, agrt_call_blocks *saved) {
  saved->blocks = t->call_list;
  saved->active = t->in_call;
  t->call_list = NULL;
  t->in_call = 1;
}

/* The call returned: the blocks still in its list (its results) leave it. */
static inline void agrt_end_blocks_kept(agrt_thread_state *t, const agrt_call_blocks *saved) {
  agrt_header *h = t->call_list;
  while (h) {
    agrt_header *next = h->next;
    h->prev = h->next = NULL;
    h = next;
  }
  t->call_list = saved->blocks;
  t->in_call = saved->active;
}

/* The call failed: the blocks still in its list are freed, and the enclosing call's list
 * is back (alloc.c). */
void agrt_release_call_blocks(const agrt_call_blocks *saved)
    __attribute__((visibility("hidden")));

/* Whether the block at `p` (what the allocator returned) is CUDA managed memory. */
int agrt_block_is_managed(const void *p) __attribute__((visibility("hidden")));

#endif /* AGC_RUNTIME_BLOCKS_H */
