/*===- alloc.c - The allocator of agc-compiled code -------------------------===*
 *
 * Every buffer the generated code allocates (memref.alloc lowered with MLIR's generic
 * allocation functions) and every output it hands to the caller comes from here, and
 * agc_tensor_free gives outputs back here.
 *
 * Large blocks (kLargeBlock and up) are kept when freed, up to kCacheSlots blocks and
 * cache_limit bytes in all, and handed out again to an allocation of about the same
 * size. A program that calls a function on 40 MB tensors in a loop then reuses the same
 * memory call after call, instead of asking the kernel for fresh pages each time and
 * taking a page fault on every 4 KiB of them (glibc maps blocks that large afresh for
 * each malloc). TensorFlow's and XLA's allocators do the same.
 *
 * Small blocks (64 bytes and less: scalar results, a loop's tiny tensors) are kept per
 * thread when freed, up to 16, and handed out again without a lock or a trip through
 * malloc (see kSmallBlock).
 *
 * In an nvptx object, the host code's buffers come from agrt_gpu_aligned_alloc: CUDA
 * managed memory, which kernels and host code both address, kept when freed as large
 * blocks are (every size: the driver's allocation is slow), in size classes of powers
 * of two; host memory where no GPU is usable.
 *
 * A header before each block's data records its size and where its memory starts (and
 * whether it is a small block): free gets only the pointer. A managed block's header is
 * in host memory of its own, found from the pointer through a table: the host writes a
 * header at every allocation and free (the call's list below), and a header before
 * managed data would bring the page it shares with the data to the host each time, and
 * the next kernel would fault it back to the GPU. While a compiled function runs, the
 * blocks it allocates are also kept in a list, so that a failed check, which leaves the
 * function by longjmp past its frees, can free them all.
 *
 *===----------------------------------------------------------------------------------===*/
#include "blocks.h"
#include "gpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

typedef agrt_header header;

/* A managed block's header, in host memory: the data is elsewhere. */
typedef struct managed_header {
  header h;
  char *data;
} managed_header;

_Thread_local agrt_thread_state agrt_thread;

static void link_block(agrt_thread_state *t, header *h) {
  h->prev = h->next = NULL;
  if (!t->in_call)
    return;
  h->next = t->call_list;
  if (t->call_list)
    t->call_list->prev = h;
  t->call_list = h;
}

static void unlink_block(agrt_thread_state *t, header *h) {
  if (h->prev)
    h->prev->next = h->next;
  else if (t->call_list == h)
    t->call_list = h->next;
  if (h->next)
    h->next->prev = h->prev;
  h->prev = h->next = NULL;
}

static char *data_of(header *h);

void agrt_release_call_blocks(const agrt_call_blocks *saved) {
  agrt_thread_state *t = agrt_self();
  header *h = t->call_list;
  t->call_list = NULL;
  t->in_call = 0;
  while (h) {
    header *next = h->next;
    h->prev = h->next = NULL;
    agrt_free(data_of(h));
    h = next;
  }
  t->call_list = saved->blocks;
  t->in_call = saved->active;
}

enum { kCacheSlots = 16 };
static const size_t kLargeBlock = (size_t)1 << 20;

/* Freed blocks kept for reuse, of one kind: host memory (large blocks) or managed. */
typedef struct block_cache {
  header *block[kCacheSlots];
  size_t size[kCacheSlots];
} block_cache;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static block_cache host_cache, managed_cache;
static size_t cached_bytes; /* both caches */
static size_t cache_limit = (size_t)1 << 30;

/* A block of `cache` of at least `size` bytes and less than twice that, aligned to
 * `align`, the smallest one; NULL if none. */
static header *take_cached(block_cache *cache, size_t size, size_t align) {
  header *found = NULL;
  pthread_mutex_lock(&lock);
  int best = -1;
  for (int i = 0; i < kCacheSlots; ++i)
    if (cache->block[i] && cache->size[i] >= size && cache->size[i] / 2 < size &&
        (uintptr_t)data_of(cache->block[i]) % align == 0 &&
        (best < 0 || cache->size[i] < cache->size[best]))
      best = i;
  if (best >= 0) {
    found = cache->block[best];
    cached_bytes -= cache->size[best];
    cache->block[best] = NULL;
  }
  pthread_mutex_unlock(&lock);
  return found;
}

/* Keeps `h` in `cache` for later; 0 if the cache is full. */
static int keep(block_cache *cache, header *h) {
  int kept = 0;
  pthread_mutex_lock(&lock);
  if (cached_bytes + h->size <= cache_limit)
    for (int i = 0; i < kCacheSlots && !kept; ++i)
      if (!cache->block[i]) {
        cache->block[i] = h;
        cache->size[i] = h->size;
        cached_bytes += h->size;
        kept = 1;
      }
  pthread_mutex_unlock(&lock);
  return kept;
}

/* Small blocks: a call's scalar results and the tiny tensors of a loop. Each is made
 * with room for kSmallBlock bytes at kSmallAlign (its header's base marked by its low
 * bit, which malloc's alignment leaves free), and a freed one is kept, up to kSmallKept
 * per thread, for the thread's next small allocation: no lock, and no trip through
 * malloc. A thread's kept blocks go back to malloc when it exits. */
enum { kSmallBlock = 64, kSmallAlign = 64, kSmallKept = AGRT_SMALL_KEPT };
static pthread_key_t small_key;
static pthread_once_t small_key_once = PTHREAD_ONCE_INIT;

/* The marks in a header's base's low bits (malloc's and the driver's alignment leave
 * them free). */
enum { kSmallMark = 1, kManagedMark = 2 };
static void *base_of(const header *h) { return (void *)((uintptr_t)h->base & ~(uintptr_t)3); }
static int is_small(const header *h) { return (uintptr_t)h->base & kSmallMark; }
static int is_managed(const header *h) { return ((uintptr_t)h->base & kManagedMark) != 0; }
static char *data_of(header *h) {
  return is_managed(h) ? ((managed_header *)h)->data : (char *)(h + 1);
}

/* The managed blocks handed out and not yet freed, by their data's address: an
 * open-addressing table (linear probing, deletion by moving the probe chain back), under
 * `lock`. `managed_used` says whether a managed block was ever made: a process that
 * runs no kernel never takes the lock in agrt_free. */
static struct {
  managed_header **slot;
  size_t capacity, count; /* capacity: 0 or a power of two, at most half full */
} registry;
static atomic_int managed_used;

static size_t slot_of(const void *data) {
  uint64_t x = (uint64_t)(uintptr_t)data;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (registry.capacity - 1);
}

/* Adds `m`; 0 if the table could not grow (no memory). Under `lock`. */
static int registry_add(managed_header *m) {
  if (2 * (registry.count + 1) > registry.capacity) {
    size_t capacity = registry.capacity ? 2 * registry.capacity : 64;
    managed_header **old = registry.slot, **slots = calloc(capacity, sizeof *slots);
    if (!slots)
      return 0;
    size_t old_capacity = registry.capacity;
    registry.slot = slots;
    registry.capacity = capacity;
    for (size_t i = 0; i < old_capacity; ++i)
      if (old[i]) {
        size_t j = slot_of(old[i]->data);
        while (registry.slot[j])
          j = (j + 1) & (capacity - 1);
        registry.slot[j] = old[i];
      }
    free(old);
  }
  size_t j = slot_of(m->data);
  while (registry.slot[j])
    j = (j + 1) & (registry.capacity - 1);
  registry.slot[j] = m;
  ++registry.count;
  return 1;
}

/* The slot of the block whose data is at `data`, or -1. Under `lock`. */
static long registry_find(const void *data) {
  if (!registry.count)
    return -1;
  for (size_t j = slot_of(data); registry.slot[j]; j = (j + 1) & (registry.capacity - 1))
    if (registry.slot[j]->data == data)
      return (long)j;
  return -1;
}

/* Removes the block in slot `j`, moving back the entries after it that probed past it. */
static void registry_remove(size_t j) {
  size_t mask = registry.capacity - 1, hole = j;
  registry.slot[hole] = NULL;
  --registry.count;
  for (size_t k = (hole + 1) & mask; registry.slot[k]; k = (k + 1) & mask) {
    size_t home = slot_of(registry.slot[k]->data);
    /* k's entry may move into the hole unless its home lies cyclically in (hole, k]. */
    if (((k - home) & mask) >= ((k - hole) & mask)) {
      registry.slot[hole] = registry.slot[k];
      registry.slot[k] = NULL;
      hole = k;
    }
  }
}

/* The managed block whose data is at `p`, taken out of the table; NULL if `p` is not
 * one. */
static header *take_managed(const void *p) {
  if (!atomic_load_explicit(&managed_used, memory_order_acquire))
    return NULL;
  pthread_mutex_lock(&lock);
  long j = registry_find(p);
  managed_header *m = j < 0 ? NULL : registry.slot[j];
  if (m)
    registry_remove((size_t)j);
  pthread_mutex_unlock(&lock);
  return m ? &m->h : NULL;
}

int agrt_block_is_managed(const void *p) {
  if (!p || !atomic_load_explicit(&managed_used, memory_order_acquire))
    return 0;
  pthread_mutex_lock(&lock);
  int found = registry_find(p) >= 0;
  pthread_mutex_unlock(&lock);
  return found;
}

/* Gives a managed block's memory and header back. */
static void free_managed(header *h) {
  agrt_gpu_managed_free(base_of(h));
  free(h);
}

static void release_small_kept(void *unused) {
  (void)unused;
  agrt_thread_state *t = agrt_self();
  while (t->small_count > 0)
    free(base_of(t->small_kept[--t->small_count]));
}

static void make_small_key(void) { pthread_key_create(&small_key, release_small_kept); }

/* A host block from malloc with room for `room` bytes at `align`, holding `size`, `mark`
 * (kSmallMark or 0) in its base's low bits, its header right before its data; NULL if
 * malloc has none. */
static header *new_block(size_t size, size_t room, size_t align, uintptr_t mark) {
  if (room > SIZE_MAX - align - sizeof(header))
    return NULL;
  char *base = malloc(room + align + sizeof(header));
  if (!base)
    return NULL;
  uintptr_t data = ((uintptr_t)base + sizeof(header) + align - 1) & ~(uintptr_t)(align - 1);
  header *h = (header *)data - 1;
  h->size = size;
  h->base = (void *)((uintptr_t)base | mark);
  return h;
}

void *agrt_aligned_alloc(size_t align, size_t size) {
  if (align < sizeof(header) || (align & (align - 1)) != 0)
    align = sizeof(header);
  agrt_thread_state *t = agrt_self();
  int small = size <= kSmallBlock && align <= kSmallAlign;
  if (small && t->small_count > 0) {
    header *h = t->small_kept[--t->small_count];
    h->size = size;
    link_block(t, h);
    return h + 1;
  }
  header *h = size >= kLargeBlock ? take_cached(&host_cache, size, align) : NULL;
  if (h) {
    link_block(t, h);
    return h + 1;
  }
  h = small ? new_block(size, kSmallBlock, kSmallAlign, kSmallMark)
            : new_block(size, size, align, 0);
  if (!h)
    return NULL;
  link_block(t, h);
  return h + 1;
}

void *agrt_alloc(size_t size) { return agrt_aligned_alloc(64, size); }

void agrt_free(void *p) {
  if (!p)
    return;
  agrt_thread_state *t = agrt_self();
  header *h = take_managed(p);
  if (h) {
    unlink_block(t, h);
    if (!keep(&managed_cache, h))
      free_managed(h);
    return;
  }
  h = (header *)p - 1;
  unlink_block(t, h);
  if (is_small(h)) {
    if (t->small_count < kSmallKept) {
      if (!t->small_registered) { /* the thread's first kept block: free them when it exits */
        pthread_once(&small_key_once, make_small_key);
        pthread_setspecific(small_key, (void *)1);
        t->small_registered = 1;
      }
      t->small_kept[t->small_count++] = h;
      return;
    }
    free(base_of(h));
    return;
  }
  if (h->size >= kLargeBlock && keep(&host_cache, h))
    return;
  free(h->base);
}

/* A managed block with room for `capacity` bytes at `align`, its header in host
 * memory; NULL if the driver has none (or no GPU), or malloc none for the header. */
static header *new_managed_block(size_t capacity, size_t align) {
  /* (The driver's allocations are aligned to 2 MiB in practice, and the pages of the
   * extra bytes past the data never touched: no memory behind them.) */
  size_t extra = align - 1;
  if (capacity > SIZE_MAX - extra)
    return NULL;
  managed_header *m = malloc(sizeof *m);
  if (!m)
    return NULL;
  char *base = agrt_gpu_managed_alloc(capacity + extra);
  if (!base) {
    free(m);
    return NULL;
  }
  m->data = (char *)(((uintptr_t)base + extra) & ~(uintptr_t)extra);
  m->h.size = capacity;
  m->h.base = (void *)((uintptr_t)base | kManagedMark);
  m->h.prev = m->h.next = NULL;
  atomic_store_explicit(&managed_used, 1, memory_order_release);
  return &m->h;
}

void *agrt_gpu_aligned_alloc(size_t align, size_t size) {
  if (align < sizeof(header) || (align & (align - 1)) != 0)
    align = sizeof(header);
  /* Size classes of powers of two, 256 bytes and up: a freed block fits the next
   * allocation of its class. */
  size_t capacity = 256;
  while (capacity < size && capacity <= SIZE_MAX / 2)
    capacity *= 2;
  if (capacity < size)
    agrt_fail_out_of_memory(size);
  header *h = take_cached(&managed_cache, capacity, align);
  if (!h) {
    if (!agc_gpu_available(NULL)) /* no kernel can run: host memory will do */
      return _mlir_memref_to_llvm_aligned_alloc(align, size);
    h = new_managed_block(capacity, align);
    if (!h) {
      agc_release_memory(); /* what the caches hold, back to the driver; then once more */
      h = new_managed_block(capacity, align);
    }
    if (!h)
      agrt_fail_out_of_memory(size);
  }
  pthread_mutex_lock(&lock);
  int added = registry_add((managed_header *)h);
  pthread_mutex_unlock(&lock);
  if (!added) {
    free_managed(h);
    agrt_fail_out_of_memory(size);
  }
  link_block(agrt_self(), h);
  return data_of(h);
}

size_t agc_release_memory(void) {
  size_t released = 0;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < kCacheSlots; ++i) {
    if (host_cache.block[i]) {
      released += host_cache.size[i];
      free(host_cache.block[i]->base);
      host_cache.block[i] = NULL;
    }
    if (managed_cache.block[i]) {
      released += managed_cache.size[i];
      free_managed(managed_cache.block[i]);
      managed_cache.block[i] = NULL;
    }
  }
  cached_bytes = 0;
  pthread_mutex_unlock(&lock);
  return released;
}

void agc_set_memory_cache_limit(size_t bytes) {
  pthread_mutex_lock(&lock);
  cache_limit = bytes;
  int over = cached_bytes > bytes;
  pthread_mutex_unlock(&lock);
  if (over) /* what the cache holds goes now */
    agc_release_memory();
}

size_t agc_cached_memory(void) {
  pthread_mutex_lock(&lock);
  size_t bytes = cached_bytes;
  pthread_mutex_unlock(&lock);
  return bytes;
}

/* At exit the cache goes back too, and this thread's small blocks: a leak checker sees
 * no block left. */
__attribute__((destructor)) static void release_at_exit(void) {
  agc_release_memory();
  release_small_kept(NULL);
  pthread_mutex_lock(&lock);
  if (registry.count == 0) { /* the managed blocks' table, where none is live */
    free(registry.slot);
    registry.slot = NULL;
    registry.capacity = 0;
  }
  pthread_mutex_unlock(&lock);
}

/* MLIR's generic allocation functions, as the CPU pipeline asks for them
 * (finalize-memref-to-llvm{use-generic-functions use-aligned-alloc}). */
void *_mlir_memref_to_llvm_aligned_alloc(size_t align, size_t size) {
  void *p = agrt_aligned_alloc(align, size);
  if (!p) /* the call ends with AGC_OUT_OF_MEMORY, rather than write through NULL */
    agrt_fail_out_of_memory(size);
  return p;
}
void _mlir_memref_to_llvm_free(void *p) { agrt_free(p); }
