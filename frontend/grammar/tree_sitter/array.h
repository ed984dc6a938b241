/* agc: the growable-array macros that the tree-sitter-python external scanner (scanner.c)
 * expects from a newer tree-sitter CLI than Debian ships, written for agc.
 *
 * An Array(T) is {contents, size, capacity}. Memory comes from malloc/realloc; array_push
 * aborts only if the allocator fails (the scanner has no way to report that). Only the
 * operations the scanner uses are defined.
 */
#ifndef AGC_TREE_SITTER_ARRAY_COMPAT_H
#define AGC_TREE_SITTER_ARRAY_COMPAT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define Array(T)                                                               \
  struct {                                                                     \
    T *contents;                                                               \
    uint32_t size;                                                             \
    uint32_t capacity;                                                         \
  }

#define array_init(self)                                                       \
  ((self)->contents = NULL, (self)->size = 0, (self)->capacity = 0)

#define array_get(self, index) (&(self)->contents[index])
#define array_back(self) array_get(self, (self)->size - 1)
#define array_pop(self) ((self)->contents[--(self)->size])

#define array_delete(self)                                                     \
  (free((self)->contents), array_init(self))

#define array_reserve(self, new_capacity)                                      \
  agc_array_reserve((void **)&(self)->contents, &(self)->capacity,            \
                    sizeof(*(self)->contents), (new_capacity))

#define array_push(self, element)                                              \
  (agc_array_grow((void **)&(self)->contents, (self)->size, &(self)->capacity, \
                  sizeof(*(self)->contents)),                                  \
   (self)->contents[(self)->size++] = (element))

static inline void agc_array_reserve(void **contents, uint32_t *capacity,
                                     size_t element_size, uint32_t wanted) {
  if (wanted <= *capacity)
    return;
  void *grown = realloc(*contents, (size_t)wanted * element_size);
  if (!grown)
    abort();
  *contents = grown;
  *capacity = wanted;
}

static inline void agc_array_grow(void **contents, uint32_t size,
                                  uint32_t *capacity, size_t element_size) {
  if (size < *capacity)
    return;
  uint32_t wanted = *capacity ? *capacity * 2 : 8;
  agc_array_reserve(contents, capacity, element_size, wanted);
}

#endif /* AGC_TREE_SITTER_ARRAY_COMPAT_H */
