/*===- runtime.c - agc's runtime: calls, errors, tf.print, strided copies --===*
 *
 * See agc/runtime.h. The generated code passes MLIR memref descriptors, laid out as
 *
 *     struct { T *allocated; T *aligned; int64_t offset; int64_t sizes[rank];
 *              int64_t strides[rank]; }
 *
 * which this file reads as arrays of 64-bit words. A function's results come back as
 * one struct of such descriptors, in order, written through the first argument of its C
 * interface.
 *
 *===----------------------------------------------------------------------------------===*/
#include "agc/runtime.h"

#include "blocks.h"
#include "gpu.h"

#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------------------===*
 * Tensors
 *===----------------------------------------------------------------------------------===*/

agc_tensor agc_tensor_wrap(agc_dtype dtype, int32_t rank, const int64_t *shape, void *data) {
  agc_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = dtype;
  t.rank = rank < 0 ? 0 : rank > AGC_MAX_RANK ? AGC_MAX_RANK : rank;
  for (int32_t d = 0; d < t.rank; ++d)
    t.shape[d] = shape[d];
  t.data = data;
  t.device = AGC_HOST;
  return t;
}

int64_t agc_tensor_size(const agc_tensor *t) {
  int64_t n = 1;
  for (int32_t d = 0; d < t->rank; ++d)
    n *= t->shape[d];
  return n;
}

size_t agc_dtype_size(agc_dtype dtype) {
  switch (dtype) {
  case AGC_FLOAT32: return 4;
  case AGC_FLOAT64: return 8;
  case AGC_INT32: return 4;
  case AGC_INT64: return 8;
  case AGC_BOOL: return 1;
  case AGC_STRING: return sizeof(agc_string);
  case AGC_INT8: return 1;
  case AGC_INT16: return 2;
  case AGC_UINT8: return 1;
  case AGC_UINT16: return 2;
  case AGC_UINT32: return 4;
  case AGC_UINT64: return 8;
  case AGC_FLOAT16: return 2;
  case AGC_BFLOAT16: return 2;
  case AGC_COMPLEX64: return 8;
  case AGC_COMPLEX128: return 16;
  }
  return 0;
}

const char *agc_dtype_name(agc_dtype dtype) {
  switch (dtype) {
  case AGC_FLOAT32: return "float32";
  case AGC_FLOAT64: return "float64";
  case AGC_INT32: return "int32";
  case AGC_INT64: return "int64";
  case AGC_BOOL: return "bool";
  case AGC_STRING: return "string";
  case AGC_INT8: return "int8";
  case AGC_INT16: return "int16";
  case AGC_UINT8: return "uint8";
  case AGC_UINT16: return "uint16";
  case AGC_UINT32: return "uint32";
  case AGC_UINT64: return "uint64";
  case AGC_FLOAT16: return "float16";
  case AGC_BFLOAT16: return "bfloat16";
  case AGC_COMPLEX64: return "complex64";
  case AGC_COMPLEX128: return "complex128";
  }
  return "unknown";
}

void agc_tensor_free(agc_tensor *t) {
  if (!t || !t->owner)
    return;
  agrt_free(t->owner);
  t->owner = NULL;
  t->data = NULL;
}

/*===----------------------------------------------------------------------------------===*
 * Errors inside a call
 *===----------------------------------------------------------------------------------===*/

/* The message of a failed check. (The innermost running call's way out is the thread
 * state's current_call, blocks.h.) */
static _Thread_local char failure[512];
static _Thread_local int failure_code;

/* Leaves the running call with status `code` and `message`. */
static void fail_with(int code, const char *message) {
  snprintf(failure, sizeof failure, "%s", message);
  failure_code = code;
  jmp_buf *call = agrt_self()->current_call;
  if (call)
    longjmp(*call, 1);
  /* A check outside any call (no entry point): nothing to return to. */
  fprintf(stderr, "agc: run-time error outside a call: %s\n", message);
  abort();
}

void agrt_fail(const char *message) { fail_with(AGC_RUNTIME_ERROR, message); }

void *agrt_call_frame(void) { return agrt_self()->current_call; }

void agrt_fail_code(int code, const char *message) { fail_with(code, message); }

void agrt_fail_values(const char *message, int64_t v0, int64_t v1, int64_t v2) {
  int64_t values[3] = {v0, v1, v2};
  char text[sizeof failure];
  size_t n = 0;
  for (const char *p = message; *p && n + 1 < sizeof text; ++p) {
    if (p[0] == '{' && p[1] >= '0' && p[1] <= '2' && p[2] == '}') {
      int wrote = snprintf(text + n, sizeof text - n, "%lld", (long long)values[p[1] - '0']);
      if (wrote > 0)
        n += (size_t)wrote;
      if (n >= sizeof text)
        n = sizeof text - 1;
      p += 2;
    } else {
      text[n++] = *p;
    }
  }
  text[n] = '\0';
  agrt_fail(text);
}

void agrt_fail_out_of_memory(size_t bytes) {
  char text[96];
  snprintf(text, sizeof text, "out of memory: could not allocate %zu bytes", bytes);
  fail_with(AGC_OUT_OF_MEMORY, text);
}

static int set_status(agc_status *status, int code, const char *format, ...) {
  if (status) {
    status->code = code;
    va_list args;
    va_start(args, format);
    vsnprintf(status->message, sizeof status->message, format, args);
    va_end(args);
  }
  return code;
}

/*===----------------------------------------------------------------------------------===*
 * Calls
 *===----------------------------------------------------------------------------------===*/

/*===----------------------------------------------------------------------------------===*
 * Strings
 *===----------------------------------------------------------------------------------===*/

/* The strings the running call made: a list of blocks, each an agc_string and its bytes,
 * freed when the call returns (string_arena_release). */
typedef struct string_block {
  struct string_block *next;
  agc_string s;
  char bytes[];
} string_block;
/* (The arena's newest block is the thread state's string_arena, blocks.h.) */

static void string_arena_release(agrt_thread_state *t, string_block *until) {
  while (t->string_arena && t->string_arena != until) {
    string_block *next = t->string_arena->next;
    free(t->string_arena);
    t->string_arena = next;
  }
}

/* A new string of `size` bytes (uninitialized, then NUL) owned by the running call. */
static agc_string *new_string(int64_t size) {
  if (size < 0)
    size = 0;
  string_block *b = malloc(sizeof *b + (size_t)size + 1);
  if (!b) {
    agrt_fail_out_of_memory((size_t)size);
    return NULL;
  }
  agrt_thread_state *t = agrt_self();
  b->next = t->string_arena;
  t->string_arena = b;
  b->s.data = b->bytes;
  b->s.size = size;
  b->bytes[size] = '\0';
  return &b->s;
}

static const agc_string empty_string = {"", 0};
static const agc_string *str(int64_t h) {
  const agc_string *s = (const agc_string *)(intptr_t)h;
  return s ? s : &empty_string;
}
static int64_t handle(const agc_string *s) { return (int64_t)(intptr_t)s; }

int64_t agrt_string_literal(const char *bytes, int64_t size) {
  string_block *b = malloc(sizeof *b);
  if (!b)
    agrt_fail_out_of_memory(sizeof *b);
  agrt_thread_state *t = agrt_self();
  b->next = t->string_arena;
  t->string_arena = b;
  b->s.data = bytes; /* the object's constant data: no copy */
  b->s.size = size;
  return handle(&b->s);
}

int64_t agrt_string_concat(int64_t a, int64_t b) {
  const agc_string *x = str(a), *y = str(b);
  agc_string *r = new_string(x->size + y->size);
  memcpy((char *)r->data, x->data, (size_t)x->size);
  memcpy((char *)r->data + x->size, y->data, (size_t)y->size);
  return handle(r);
}

int32_t agrt_string_equal(int64_t a, int64_t b) {
  const agc_string *x = str(a), *y = str(b);
  return x->size == y->size && memcmp(x->data, y->data, (size_t)x->size) == 0;
}

int32_t agrt_string_length(int64_t s, int32_t utf8_chars) {
  const agc_string *x = str(s);
  if (!utf8_chars)
    return (int32_t)x->size;
  int32_t n = 0; /* UTF-8 characters: the bytes that are not continuation bytes */
  for (int64_t i = 0; i < x->size; ++i)
    n += ((unsigned char)x->data[i] & 0xC0) != 0x80;
  return n;
}

static int64_t map_ascii(int64_t s, int upper) {
  const agc_string *x = str(s);
  agc_string *r = new_string(x->size);
  char *out = (char *)r->data;
  for (int64_t i = 0; i < x->size; ++i) {
    char c = x->data[i];
    if (upper && c >= 'a' && c <= 'z')
      c = (char)(c - 'a' + 'A');
    else if (!upper && c >= 'A' && c <= 'Z')
      c = (char)(c - 'A' + 'a');
    out[i] = c;
  }
  return handle(r);
}
int64_t agrt_string_upper(int64_t s) { return map_ascii(s, 1); }
int64_t agrt_string_lower(int64_t s) { return map_ascii(s, 0); }

int64_t agrt_string_substr(int64_t s, int64_t pos, int64_t len, const char *where) {
  const agc_string *x = str(s);
  if (pos > x->size || pos < -x->size) {
    char message[sizeof failure];
    snprintf(message, sizeof message, "%spos %lld out of range for a string of %lld bytes",
             where ? where : "", (long long)pos, (long long)x->size);
    agrt_fail(message);
  }
  if (pos < 0)
    pos += x->size;
  if (len < 0)
    len = 0;
  if (len > x->size - pos)
    len = x->size - pos;
  agc_string *r = new_string(len);
  memcpy((char *)r->data, x->data + pos, (size_t)len);
  return handle(r);
}

/* TensorFlow's AsString format: "%", the fill flag (' ', '+', '-', '0' or '#', 0 for
 * none), the width (< 0 for none), the precision (< 0 for none), then `conversion`. */
static void as_string_format(char *out, size_t size, int32_t fill, int32_t width,
                             int32_t precision, const char *conversion) {
  size_t n = (size_t)snprintf(out, size, "%%");
  if (fill)
    n += (size_t)snprintf(out + n, size - n, "%c", (char)fill);
  if (width >= 0)
    n += (size_t)snprintf(out + n, size - n, "%d", (int)width);
  if (precision >= 0)
    n += (size_t)snprintf(out + n, size - n, ".%d", (int)precision);
  snprintf(out + n, size - n, "%s", conversion);
}

static int64_t text_string(const char *text) {
  int64_t n = (int64_t)strlen(text);
  agc_string *r = new_string(n);
  memcpy((char *)r->data, text, (size_t)n);
  return handle(r);
}

int64_t agrt_string_from_int(int64_t v, int32_t width, int32_t fill) {
  char format[32], text[600];
  as_string_format(format, sizeof format, fill, width > 512 ? 512 : width, -1, "lld");
  snprintf(text, sizeof text, format, (long long)v);
  return text_string(text);
}

int64_t agrt_string_from_bool(int32_t v, int32_t width, int32_t fill) {
  char format[32], text[600];
  as_string_format(format, sizeof format, fill, width > 512 ? 512 : width, -1, "s");
  snprintf(text, sizeof text, format, v ? "true" : "false");
  return text_string(text);
}

int64_t agrt_string_from_float(double v, int32_t precision, int32_t how, int32_t width,
                               int32_t fill) {
  /* printf's f, e or g (how 0, 1, 2), as TensorFlow's AsString builds it. */
  char format[32], text[1200];
  as_string_format(format, sizeof format, fill, width > 512 ? 512 : width,
                   precision > 512 ? 512 : precision, how == 1 ? "e" : how == 2 ? "g" : "f");
  snprintf(text, sizeof text, format, v);
  return text_string(text);
}

static void not_a_number(const agc_string *x, const char *where) {
  char message[sizeof failure];
  snprintf(message, sizeof message, "%sStringToNumberOp could not correctly convert string: %.*s",
           where ? where : "", (int)(x->size > 100 ? 100 : x->size), x->data);
  agrt_fail(message);
}

/* `x` as a NUL-terminated copy without the spaces around it, as TensorFlow strips them. */
static const char *number_text(const agc_string *x, char *buffer, size_t size,
                               const char *where) {
  int64_t lo = 0, hi = x->size;
  while (lo < hi && (x->data[lo] == ' ' || x->data[lo] == '\t' || x->data[lo] == '\n'))
    ++lo;
  while (hi > lo && (x->data[hi - 1] == ' ' || x->data[hi - 1] == '\t' || x->data[hi - 1] == '\n'))
    --hi;
  if (hi == lo || (size_t)(hi - lo) >= size)
    not_a_number(x, where);
  memcpy(buffer, x->data + lo, (size_t)(hi - lo));
  buffer[hi - lo] = '\0';
  return buffer;
}

double agrt_string_to_float(int64_t s, int32_t bits, const char *where) {
  const agc_string *x = str(s);
  char buffer[128], *end;
  const char *text = number_text(x, buffer, sizeof buffer, where);
  double v = bits == 32 ? (double)strtof(text, &end) : strtod(text, &end);
  if (*end != '\0')
    not_a_number(x, where);
  return v;
}

int64_t agrt_string_to_int(int64_t s, int32_t bits, const char *where) {
  const agc_string *x = str(s);
  char buffer[128], *end;
  const char *text = number_text(x, buffer, sizeof buffer, where);
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (*end != '\0' || errno == ERANGE || (bits == 32 && (v < INT32_MIN || v > INT32_MAX)))
    not_a_number(x, where);
  return (int64_t)v;
}

/* Words in a descriptor of rank `rank`. */
static size_t descriptor_words(int32_t rank) { return 3 + 2 * (size_t)rank; }

/* "(2, None)" for a signature's shape, "(2, 3)" for a tensor's. */
static void shape_text(char *out, size_t size, int32_t rank, const int64_t *shape) {
  size_t n = (size_t)snprintf(out, size, "(");
  for (int32_t d = 0; d < rank && n < size; ++d) {
    if (shape[d] < 0)
      n += (size_t)snprintf(out + n, size - n, "%sNone", d ? ", " : "");
    else
      n += (size_t)snprintf(out + n, size - n, "%s%lld", d ? ", " : "", (long long)shape[d]);
  }
  if (n < size)
    snprintf(out + n, size - n, rank == 1 ? ",)" : ")");
}

/* "a float32", "an int32". */
static const char *article(agc_dtype dtype) {
  return agc_dtype_name(dtype)[0] == 'i' ? "an" : "a";
}

/* Whether `fn` takes input `t` (of parameter `p`) where its data is: host and managed
 * memory everywhere; device memory (AGC_CUDA) only where the function runs GPU kernels,
 * which copy it on the device (-ag-gpu-stage-buffers), never where host code would read
 * it. */
static int check_device(const agrt_function *fn, const agrt_param *p, const agc_tensor *t,
                        agc_status *status) {
  if (t->device == AGC_HOST || t->device == AGC_CUDA_MANAGED)
    return AGC_OK;
  if (t->device != AGC_CUDA)
    return set_status(status, AGC_INVALID_ARGUMENT,
                      "%s: argument '%s' has device %d, which is none of AGC_HOST, AGC_CUDA "
                      "and AGC_CUDA_MANAGED",
                      fn->name, p->name, (int)t->device);
  if (p->dtype == AGC_STRING)
    return set_status(status, AGC_INVALID_ARGUMENT,
                      "%s: argument '%s' is a string tensor in GPU memory (AGC_CUDA): strings "
                      "are host memory",
                      fn->name, p->name);
  if (!(fn->flags & AGRT_RUNS_KERNELS))
    return set_status(status, AGC_INVALID_ARGUMENT,
                      "%s: argument '%s' is in GPU memory (AGC_CUDA), but this function runs "
                      "on the CPU (it launches no GPU kernel): pass it in host or managed "
                      "memory",
                      fn->name, p->name);
  if ((fn->flags & AGRT_CPU_VERSION) && !agc_uses_gpu())
    return set_status(status, AGC_INVALID_ARGUMENT,
                      "%s: argument '%s' is in GPU memory (AGC_CUDA), but this function runs "
                      "its CPU version here (agc_uses_gpu() is 0): pass it in host or managed "
                      "memory",
                      fn->name, p->name);
  return AGC_OK;
}

static int check_input(const agrt_function *fn, int32_t i, const agc_tensor *t, agc_status *status) {
  const agrt_param *p = &fn->inputs[i];
  char want[160], got[160];
  if (!t)
    return set_status(status, AGC_INVALID_ARGUMENT, "%s: argument '%s' is missing (NULL)",
                      fn->name, p->name);
  int typed = t->dtype == p->dtype && t->rank == p->rank;
  for (int32_t d = 0; typed && d < p->rank; ++d)
    typed = t->shape[d] >= 0 && (p->shape[d] < 0 || p->shape[d] == t->shape[d]);
  if (typed && (t->data || agc_tensor_size(t) == 0))
    return check_device(fn, p, t, status);
  if (t->rank < 0 || t->rank > AGC_MAX_RANK)
    return set_status(status, AGC_INVALID_ARGUMENT, "%s: argument '%s' has rank %d", fn->name,
                      p->name, (int)t->rank);
  for (int32_t d = 0; d < t->rank; ++d)
    if (t->shape[d] < 0)
      return set_status(status, AGC_INVALID_ARGUMENT,
                        "%s: argument '%s' has a negative dimension: shape[%d] is %lld",
                        fn->name, p->name, (int)d, (long long)t->shape[d]);
  if (typed)
    return set_status(status, AGC_INVALID_ARGUMENT,
                      "%s: argument '%s' has no data (NULL) for its %lld elements", fn->name,
                      p->name, (long long)agc_tensor_size(t));
  /* The message only when the check failed: a call that passes formats nothing. */
  shape_text(want, sizeof want, p->rank, p->shape);
  shape_text(got, sizeof got, t->rank, t->shape);
  return set_status(status, AGC_INVALID_ARGUMENT,
                    "%s: argument '%s' must be %s %s tensor of shape %s, not %s %s tensor of "
                    "shape %s",
                    fn->name, p->name, article(p->dtype), agc_dtype_name(p->dtype), want,
                    article(t->dtype), agc_dtype_name(t->dtype), got);
}


/* Fills output `t` from result descriptor `w` of parameter `p`: takes the allocation
 * when the data is contiguous (it always is: results have the identity layout), copies
 * otherwise. A `shared` allocation (another result views it too: a value returned twice,
 * or beside a reshape of it) is always copied and never freed here. */
/* Bytes per element in compiled code: a string is a handle there (see Strings). */
static size_t compiled_size(agc_dtype dtype) {
  return dtype == AGC_STRING ? sizeof(int64_t) : agc_dtype_size(dtype);
}

static int take_result(const agrt_param *p, const int64_t *w, agc_tensor *t, int shared) {
  void *allocated = (void *)(intptr_t)w[0];
  char *aligned = (char *)(intptr_t)w[1];
  int64_t offset = w[2];
  const int64_t *sizes = w + 3, *strides = w + 3 + p->rank;
  size_t element = compiled_size(p->dtype);
  /* Field by field: a memset of the descriptor is a `rep stos`, a tenth of a small call. */
  for (int d = 0; d < AGC_MAX_RANK; ++d)
    t->shape[d] = 0;
  t->data = NULL;
  t->owner = NULL;
  t->dtype = p->dtype;
  t->rank = p->rank;
  t->device = AGC_HOST;
  int64_t expected = 1, count = 1;
  int contiguous = 1;
  for (int32_t d = p->rank - 1; d >= 0; --d) {
    t->shape[d] = sizes[d];
    if (sizes[d] != 1 && strides[d] != expected)
      contiguous = 0;
    expected *= sizes[d];
    count *= sizes[d];
  }
  if (contiguous && !shared) {
    t->owner = allocated;
    t->data = aligned + offset * (int64_t)element;
    /* A function that ran GPU kernels allocates from managed memory. */
    if (agrt_block_is_managed(allocated))
      t->device = AGC_CUDA_MANAGED;
    return AGC_OK;
  }
  char *copy = agrt_alloc(count ? (size_t)count * element : 1);
  if (!copy)
    return AGC_OUT_OF_MEMORY;
  int64_t index[AGC_MAX_RANK] = {0};
  for (int64_t k = 0; k < count; ++k) {
    int64_t at = offset;
    for (int32_t d = 0; d < p->rank; ++d)
      at += index[d] * strides[d];
    memcpy(copy + k * (int64_t)element, aligned + at * (int64_t)element, element);
    for (int32_t d = p->rank - 1; d >= 0 && ++index[d] == sizes[d]; --d)
      index[d] = 0;
  }
  if (!shared)
    agrt_free(allocated);
  t->owner = copy;
  t->data = copy;
  return AGC_OK;
}

/* A string output `t` (handles, as the call left them) made an array of agc_string and
 * the bytes after it, in one allocation the output owns. */
static int strings_out(agc_tensor *t) {
  int64_t count = agc_tensor_size(t);
  const int64_t *handles = t->data;
  size_t bytes = 0;
  for (int64_t k = 0; k < count; ++k)
    bytes += (size_t)str(handles[k])->size + 1;
  char *block = agrt_alloc((size_t)count * sizeof(agc_string) + bytes + 1);
  if (!block)
    return AGC_OUT_OF_MEMORY;
  agc_string *out = (agc_string *)block;
  char *at = block + (size_t)count * sizeof(agc_string);
  for (int64_t k = 0; k < count; ++k) {
    const agc_string *s = str(handles[k]);
    memcpy(at, s->data, (size_t)s->size);
    at[s->size] = '\0';
    out[k].data = at;
    out[k].size = s->size;
    at += s->size + 1;
  }
  agrt_free(t->owner);
  t->owner = block;
  t->data = block;
  return AGC_OK;
}

/* Whether result `i`'s allocation is also another result's. */
static int shares_allocation(const agrt_function *fn, const int64_t *block, int32_t i) {
  const int64_t *w = block, *mine = NULL;
  for (int32_t k = 0; k < fn->num_outputs; w += descriptor_words(fn->outputs[k].rank), ++k)
    if (k == i)
      mine = w;
  w = block;
  for (int32_t k = 0; k < fn->num_outputs; w += descriptor_words(fn->outputs[k].rank), ++k)
    if (k != i && w[0] == mine[0])
      return 1;
  return 0;
}

/* Sets flush-to-zero and denormals-are-zero (MXCSR's FTZ and DAZ bits on x86-64);
 * returns the mode to restore: its control bits, for the exception flags the call
 * raised stay raised, as after any other floating-point code. */
static unsigned enter_flush_denormals(void) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned mode = _mm_getcsr();
  _mm_setcsr(mode | 0x8040u);
  return mode;
#else
  return 0;
#endif
}

static void leave_flush_denormals(unsigned mode) {
#if defined(__x86_64__) || defined(__i386__)
  const unsigned flags = 0x3Fu;
  _mm_setcsr((mode & ~flags) | (_mm_getcsr() & flags));
#else
  (void)mode;
#endif
}

/* Runs `fn` on the descriptors `args` with the call's bookkeeping, in `t` (this thread's
 * state): denormals flushed, a way out for a failed check, the blocks the call allocates
 * tracked. On failure, what the call allocated (its strings too) is freed and the status
 * says why; on success, the strings the call made are still there (the string arena as
 * it was is `*strings_before`), for the outputs to be copied from. */
static int run_call(agrt_thread_state *t, const agrt_function *fn, void **args,
                    agc_status *status, string_block **strings_before) {
  /* TensorFlow's CPU kernels run with denormals flushed to zero, as inputs and as
   * results (its ScopedFlushDenormal): so does the call, and the caller's mode is back
   * when it returns. */
  int float_mode = !(fn->flags & AGRT_NO_FLOAT_MODE);
  unsigned fp_mode = float_mode ? enter_flush_denormals() : 0;
  jmp_buf here;
  jmp_buf *outer = t->current_call;
  agrt_call_blocks blocks;
  agrt_begin_blocks(t, &blocks);
  *strings_before = t->string_arena;
  t->current_call = &here;
  if (setjmp(here)) {
    /* A failed check: what the call allocated so far is freed. */
    t->current_call = outer;
    if (float_mode)
      leave_flush_denormals(fp_mode);
    agrt_release_call_blocks(&blocks);
    agrt_gpu_release_call(&here);
    string_arena_release(t, *strings_before);
    return set_status(status, failure_code, "%s: %s", fn->name, failure);
  }
  fn->call(args);
  t->current_call = outer;
  if (float_mode)
    leave_flush_denormals(fp_mode);
  agrt_end_blocks_kept(t, &blocks);
  return AGC_OK;
}

int agrt_call(const agrt_function *fn, void **args, agc_status *status) {
  if (status) {
    status->code = AGC_OK;
    status->message[0] = '\0';
  }
  string_block *strings_before;
  agrt_thread_state *t = agrt_self();
  int code = run_call(t, fn, args, status, &strings_before);
  if (code == AGC_OK)
    string_arena_release(t, strings_before);
  return code;
}

/* Fills `outputs` from the result descriptors at `block` (results first, in order).
 * Results that share an allocation (one value returned twice, or beside a view of it)
 * each get a copy, each with its own shape; the shared block is freed once, by the last
 * result that uses it. On failure (out of memory) every output is freed. */
int agrt_take_results(const agrt_function *fn, const int64_t *block,
                      agc_tensor *const *outputs, agc_status *status) {
  int code = AGC_OK;
  const int64_t *w = block;
  for (int32_t i = 0; i < fn->num_outputs; ++i) {
    void *allocated = (void *)(intptr_t)w[0];
    int shared = shares_allocation(fn, block, i);
    if (code == AGC_OK) {
      code = take_result(&fn->outputs[i], w, outputs[i], shared);
      if (code == AGC_OK && fn->outputs[i].dtype == AGC_STRING)
        code = strings_out(outputs[i]);
    } else if (!shared) {
      agrt_free(allocated);
    }
    int last = 1; /* no later result shares it */
    const int64_t *v = w + descriptor_words(fn->outputs[i].rank);
    for (int32_t k = i + 1; k < fn->num_outputs; v += descriptor_words(fn->outputs[k].rank), ++k)
      last &= (void *)(intptr_t)v[0] != allocated;
    if (shared && last)
      agrt_free(allocated);
    w += descriptor_words(fn->outputs[i].rank);
  }
  if (code != AGC_OK) {
    for (int32_t i = 0; i < fn->num_outputs; ++i)
      agc_tensor_free(outputs[i]);
    return set_status(status, code, "%s: out of memory", fn->name);
  }
  return AGC_OK;
}

int agrt_null_output(const agrt_function *fn, int32_t index, agc_status *status) {
  return set_status(status, AGC_INVALID_ARGUMENT, "%s: output %d is NULL", fn->name, (int)index);
}

int agrt_invoke(const agrt_function *fn, const agc_tensor *const *inputs,
                agc_tensor *const *outputs, agc_status *status) {
  if (status) {
    status->code = AGC_OK;
    status->message[0] = '\0';
  }
  if ((fn->num_inputs > 0 && !inputs) || (fn->num_outputs > 0 && !outputs))
    return set_status(status, AGC_INVALID_ARGUMENT, "%s: the %s array is NULL", fn->name,
                      !inputs && fn->num_inputs > 0 ? "inputs" : "outputs");
  for (int32_t i = 0; i < fn->num_inputs; ++i) {
    int code = check_input(fn, i, inputs[i], status);
    if (code != AGC_OK)
      return code;
  }
  for (int32_t i = 0; i < fn->num_outputs; ++i)
    if (!outputs[i])
      return set_status(status, AGC_INVALID_ARGUMENT, "%s: output %d is NULL", fn->name, (int)i);

  /* The descriptors: one block, results first. */
  size_t words = 0;
  for (int32_t i = 0; i < fn->num_outputs; ++i)
    words += descriptor_words(fn->outputs[i].rank);
  size_t resultWords = words;
  for (int32_t i = 0; i < fn->num_inputs; ++i)
    words += descriptor_words(fn->inputs[i].rank);
  /* The descriptors, then the pointers to them, in one block. */
  size_t pointers = (fn->num_outputs > 0) + (size_t)fn->num_inputs;
  size_t need = words * sizeof(int64_t) + pointers * sizeof(void *);
  int64_t stack[256];
  int64_t *block = need <= sizeof stack ? stack : malloc(need);
  if (!block)
    return set_status(status, AGC_OUT_OF_MEMORY, "%s: out of memory", fn->name);
  void **args = (void **)(block + words);
  int n = 0;
  if (fn->num_outputs > 0)
    args[n++] = block;
  /* A string input is passed as handles: the addresses of the caller's agc_strings
   * (the array of them set up only for a function that takes strings). */
  int64_t *handles[64];
  int32_t with_strings = 0;
  for (int32_t i = 0; i < fn->num_inputs; ++i)
    if (fn->inputs[i].dtype == AGC_STRING)
      with_strings = fn->num_inputs < 64 ? fn->num_inputs : 64;
  for (int32_t i = 0; i < with_strings; ++i)
    handles[i] = NULL;
  int64_t *w = block + resultWords;
  for (int32_t i = 0; i < fn->num_inputs; ++i) {
    const agc_tensor *t = inputs[i];
    w[0] = w[1] = (int64_t)(intptr_t)t->data;
    if (t->dtype == AGC_STRING) {
      int64_t count = agc_tensor_size(t);
      int64_t *h = i < 64 ? malloc((size_t)(count ? count : 1) * sizeof(int64_t)) : NULL;
      if (!h) {
        for (int32_t k = 0; k < i && k < with_strings; ++k)
          free(handles[k]);
        if (block != stack)
          free(block);
        return set_status(status, i < 64 ? AGC_OUT_OF_MEMORY : AGC_INVALID_ARGUMENT,
                          i < 64 ? "%s: out of memory" : "%s: more than 64 inputs with strings",
                          fn->name);
      }
      for (int64_t k = 0; k < count; ++k)
        h[k] = (int64_t)(intptr_t)&((const agc_string *)t->data)[k];
      handles[i] = h;
      w[0] = w[1] = (int64_t)(intptr_t)h;
    }
    w[2] = 0;
    int64_t stride = 1;
    for (int32_t d = t->rank - 1; d >= 0; --d) {
      w[3 + d] = t->shape[d];
      w[3 + t->rank + d] = stride;
      stride *= t->shape[d];
    }
    args[n++] = w;
    w += descriptor_words(t->rank);
  }

  string_block *strings_before;
  agrt_thread_state *t = agrt_self();
  int code = run_call(t, fn, args, status, &strings_before);
  if (code == AGC_OK) {
    code = agrt_take_results(fn, block, outputs, status);
    string_arena_release(t, strings_before);
  }
  for (int32_t i = 0; i < with_strings; ++i)
    free(handles[i]);
  if (block != stack)
    free(block);
  return code;
}

/*===----------------------------------------------------------------------------------===*
 * tf.print
 *===----------------------------------------------------------------------------------===*/

/* The line being printed: written at once by agrt_print_end. */
static _Thread_local struct {
  char *text;
  size_t size, capacity;
  int32_t stream;
  int64_t summarize;
} line;

static void append(const char *s, size_t n) {
  if (line.size + n + 1 > line.capacity) {
    size_t capacity = line.capacity ? line.capacity : 256;
    while (capacity < line.size + n + 1)
      capacity *= 2;
    char *grown = realloc(line.text, capacity);
    if (!grown)
      return; /* out of memory: the line is cut */
    line.text = grown;
    line.capacity = capacity;
  }
  memcpy(line.text + line.size, s, n);
  line.size += n;
  line.text[line.size] = '\0';
}

static void appends(const char *s) { append(s, strlen(s)); }

void agrt_print_begin(int32_t stream, int64_t summarize) {
  line.size = 0;
  line.stream = stream;
  line.summarize = summarize;
  append("", 0);
}

void agrt_print_text(const char *text) { appends(text); }

void agrt_print_end(void) {
  FILE *out = line.stream == 1 ? stdout : stderr;
  if (line.size)
    fwrite(line.text, 1, line.size, out);
  fflush(out);
  free(line.text);
  line.text = NULL;
  line.size = line.capacity = 0;
}

/* tf.strings.format: what tf.print would write, as a string of the running call. */
void agrt_format_begin(int64_t summarize) { agrt_print_begin(2, summarize); }

int64_t agrt_format_end(void) {
  agc_string *r = new_string((int64_t)line.size);
  if (line.size)
    memcpy((char *)r->data, line.text, line.size);
  free(line.text);
  line.text = NULL;
  line.size = line.capacity = 0;
  return handle(r);
}

/* A float as TensorFlow prints it: the shortest of %.{6,9}g (float32) or %.{15,17}g
 * (float64) that reads back as the same value. */
static void format_float(char *out, size_t size, double v, int is_double) {
  if (isnan(v)) {
    snprintf(out, size, "nan");
    return;
  }
  if (isinf(v)) {
    snprintf(out, size, v < 0 ? "-inf" : "inf");
    return;
  }
  snprintf(out, size, "%.*g", is_double ? 15 : 6, v);
  if (is_double ? strtod(out, NULL) != v : strtof(out, NULL) != (float)v)
    snprintf(out, size, "%.*g", is_double ? 17 : 9, v);
}

typedef void (*element_printer)(const char *at, char *out, size_t size);
static void print_f32(const char *at, char *out, size_t size) {
  float v;
  memcpy(&v, at, sizeof v);
  format_float(out, size, v, 0);
}
static void print_f64(const char *at, char *out, size_t size) {
  double v;
  memcpy(&v, at, sizeof v);
  format_float(out, size, v, 1);
}
static void print_i32(const char *at, char *out, size_t size) {
  int32_t v;
  memcpy(&v, at, sizeof v);
  snprintf(out, size, "%d", (int)v);
}
static void print_i64(const char *at, char *out, size_t size) {
  int64_t v;
  memcpy(&v, at, sizeof v);
  snprintf(out, size, "%lld", (long long)v);
}
static void print_i1(const char *at, char *out, size_t size) {
  snprintf(out, size, "%d", *at ? 1 : 0);
}

/* Prints dimension `d` onward of the tensor at element offset `at`, as TensorFlow does:
 * `[1 2 3]`, rows on their own lines, blocks apart by blank lines, and `...` for all but
 * the first and last `ends` items of a long dimension (TensorFlow's PrintOneDimV2, where
 * `ends` is summarize= bounded by the element count: 0 for an empty tensor, which prints
 * `...` at its first dimension that is not 0). */
static void print_level(const char *base, size_t element, int64_t rank, const int64_t *sizes,
                        const int64_t *strides, int64_t d, int64_t at, int64_t ends,
                        element_printer p) {
  char text[64];
  if (d == rank) {
    p(base + at * (int64_t)element, text, sizeof text);
    appends(text);
    return;
  }
  appends("[");
  int64_t n = sizes[d];
  /* Between items: one newline per dimension left below, then indentation. */
  char separator[AGC_MAX_RANK + 72];
  size_t k = 0;
  if (d + 1 == rank) {
    separator[k++] = ' ';
  } else {
    for (int64_t i = d + 1; i < rank && k < AGC_MAX_RANK + 8; ++i)
      separator[k++] = '\n';
    for (int64_t i = 0; i <= d && k < sizeof separator - 1; ++i)
      separator[k++] = ' ';
  }
  separator[k] = '\0';
  for (int64_t i = 0; i < ends && i < n; ++i) {
    if (i > 0)
      appends(separator);
    print_level(base, element, rank, sizes, strides, d + 1, at + i * strides[d], ends, p);
  }
  if (n > 2 * ends) {
    appends(separator);
    appends("...");
  }
  for (int64_t i = ends > n - ends ? ends : n - ends; i < n; ++i) {
    appends(separator);
    print_level(base, element, rank, sizes, strides, d + 1, at + i * strides[d], ends, p);
  }
  appends("]");
}

static void print_tensor(int64_t rank, void *descriptor, size_t element, element_printer p) {
  const int64_t *w = descriptor;
  const char *aligned = (const char *)(intptr_t)w[1];
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= w[3 + d];
  int64_t ends = line.summarize < 0 || line.summarize > count ? count : line.summarize;
  /* With no item to show, TensorFlow 2.21 prints a bool tensor as nothing at all, and a
   * scalar as `...`. */
  if (ends == 0 && p == print_i1)
    return;
  if (ends == 0 && rank == 0) {
    appends("...");
    return;
  }
  print_level(aligned, element, rank, w + 3, w + 3 + rank, 0, w[2], ends, p);
}

void agrt_print_f32(int64_t rank, void *d) { print_tensor(rank, d, 4, print_f32); }
void agrt_print_f64(int64_t rank, void *d) { print_tensor(rank, d, 8, print_f64); }
void agrt_print_i32(int64_t rank, void *d) { print_tensor(rank, d, 4, print_i32); }
void agrt_print_i64(int64_t rank, void *d) { print_tensor(rank, d, 8, print_i64); }
void agrt_print_i1(int64_t rank, void *d) { print_tensor(rank, d, 1, print_i1); }

static void print_int8(const char *at, char *out, size_t size) {
  snprintf(out, size, "%d", (int)*(const int8_t *)at);
}
static void print_int16(const char *at, char *out, size_t size) {
  int16_t v;
  memcpy(&v, at, sizeof v);
  snprintf(out, size, "%d", (int)v);
}
static void print_uint8(const char *at, char *out, size_t size) {
  snprintf(out, size, "%u", (unsigned)*(const uint8_t *)at);
}
static void print_uint16(const char *at, char *out, size_t size) {
  uint16_t v;
  memcpy(&v, at, sizeof v);
  snprintf(out, size, "%u", (unsigned)v);
}
static void print_uint32(const char *at, char *out, size_t size) {
  uint32_t v;
  memcpy(&v, at, sizeof v);
  snprintf(out, size, "%lu", (unsigned long)v);
}
static void print_uint64(const char *at, char *out, size_t size) {
  uint64_t v;
  memcpy(&v, at, sizeof v);
  snprintf(out, size, "%llu", (unsigned long long)v);
}
/* float16 and bfloat16 print as the float32 they widen to, as TensorFlow prints them. */
static void print_float16(const char *at, char *out, size_t size) {
  uint16_t v;
  memcpy(&v, at, sizeof v);
  format_float(out, size, agc_float16_to_float(v), 0);
}
static void print_bfloat16(const char *at, char *out, size_t size) {
  uint16_t v;
  memcpy(&v, at, sizeof v);
  format_float(out, size, agc_bfloat16_to_float(v), 0);
}
void agrt_print_i8(int64_t rank, void *d) { print_tensor(rank, d, 1, print_int8); }
void agrt_print_i16(int64_t rank, void *d) { print_tensor(rank, d, 2, print_int16); }
void agrt_print_uint8(int64_t rank, void *d) { print_tensor(rank, d, 1, print_uint8); }
void agrt_print_uint16(int64_t rank, void *d) { print_tensor(rank, d, 2, print_uint16); }
void agrt_print_uint32(int64_t rank, void *d) { print_tensor(rank, d, 4, print_uint32); }
void agrt_print_uint64(int64_t rank, void *d) { print_tensor(rank, d, 8, print_uint64); }
void agrt_print_f16(int64_t rank, void *d) { print_tensor(rank, d, 2, print_float16); }
void agrt_print_bf16(int64_t rank, void *d) { print_tensor(rank, d, 2, print_bfloat16); }
/* TensorFlow 2.21's tf.print has no format for complex numbers: its SummarizeValue writes
 * '?' for each of the first summarize= elements, flat whatever the rank, then "..." if
 * there are more, in brackets unless the tensor is a scalar. */
static void print_unknown(int64_t rank, void *descriptor) {
  const int64_t *w = descriptor;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= w[3 + d];
  int64_t most = line.summarize < 0 ? count : line.summarize;
  if (rank > 0)
    appends("[");
  for (int64_t i = 0; i < most && i < count; ++i)
    appends(i ? " ?" : "?");
  if (most < count)
    appends("...");
  if (rank > 0)
    appends("]");
}
void agrt_print_c64(int64_t rank, void *d) { print_unknown(rank, d); }
void agrt_print_c128(int64_t rank, void *d) { print_unknown(rank, d); }

/* IEEE 754 binary16 <-> binary32, exactly (and to nearest even). */
float agc_float16_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13); /* inf, NaN */
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else { /* subnormal: normalize */
      int e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400));
      bits = sign | (uint32_t)(127 - 15 - e) << 23 | (mantissa & 0x3FF) << 13;
    }
  } else {
    bits = sign | (exponent + 127 - 15) << 23 | mantissa << 13;
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t agc_float_to_float16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t abs = x & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) /* NaN: quiet, keep the top payload bits */
    return (uint16_t)(sign | 0x7E00 | ((abs >> 13) & 0x3FF));
  if (abs >= 0x477FF000u) /* rounds to inf (65520 and up) */
    return (uint16_t)(sign | 0x7C00);
  if (abs < 0x38800000u) { /* subnormal or zero in half: scale to an integer, round */
    float scaled;
    uint32_t a = abs;
    memcpy(&scaled, &a, sizeof scaled);
    scaled *= 16777216.0f; /* 2^24: one half subnormal step is 1 */
    uint32_t q = (uint32_t)scaled;
    float rest = scaled - (float)q;
    if (rest > 0.5f || (rest == 0.5f && (q & 1)))
      ++q;
    return (uint16_t)(sign | q);
  }
  uint32_t mantissa = abs & 0x7FFFFF, exponent = (abs >> 23) - 127 + 15;
  uint32_t h = exponent << 10 | mantissa >> 13;
  uint32_t rest = mantissa & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; /* may carry into the exponent, which is right */
  return (uint16_t)(sign | h);
}

float agc_bfloat16_to_float(uint16_t b) {
  uint32_t bits = (uint32_t)b << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t agc_float_to_bfloat16(float f) {
  uint32_t x;
  memcpy(&x, &f, sizeof x);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) /* NaN stays a quiet NaN */
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7FFF + ((x >> 16) & 1); /* to nearest even */
  return (uint16_t)(x >> 16);
}

#if defined(__x86_64__)
/* LLVM's rounding of a float to bfloat16 where the CPU has no AVX512-BF16: it keeps a
   bfloat16 it selects or moves as a float and rounds it back with this function, which
   libgcc has from GCC 13 on (Debian 12's GCC 12 lacks it: an object with bfloat16 could
   not be linked). The same here, weak so that a libgcc that has it may give its own:
   to nearest even, a NaN a quiet NaN. Its bfloat16 is returned as a _Float16 is, in the
   low 16 bits of xmm0. */
__attribute__((weak)) _Float16 __truncsfbf2(float f) {
  uint16_t bits = agc_float_to_bfloat16(f);
  _Float16 r;
  memcpy(&r, &bits, sizeof r);
  return r;
}
#endif

/* A string element as TensorFlow prints it: in double quotes, its bytes as they are. */
static void print_string_element(const char *at, char *out, size_t size) {
  int64_t h;
  memcpy(&h, at, sizeof h);
  const agc_string *s = str(h);
  appends("\"");
  append(s->data, (size_t)s->size);
  appends("\"");
  if (size)
    out[0] = '\0';
}
void agrt_print_string(int64_t rank, void *d) {
  print_tensor(rank, d, sizeof(int64_t), print_string_element);
}

/*===----------------------------------------------------------------------------------===*
 * memref.copy of strided buffers
 *===----------------------------------------------------------------------------------===*/

typedef struct {
  int64_t rank;
  int64_t *descriptor;
} unranked;

void memrefCopy(int64_t element_size, void *source, void *destination) {
  const unranked *src = source, *dst = destination;
  int64_t rank = src->rank;
  const int64_t *s = src->descriptor, *t = dst->descriptor;
  const char *from = (const char *)(intptr_t)s[1];
  char *to = (char *)(intptr_t)t[1];
  const int64_t *sizes = s + 3, *fromStrides = s + 3 + rank, *toStrides = t + 3 + rank;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= sizes[d];
  int64_t index[AGC_MAX_RANK + 8] = {0};
  for (int64_t k = 0; k < count; ++k) {
    int64_t a = s[2], b = t[2];
    for (int64_t d = 0; d < rank; ++d) {
      a += index[d] * fromStrides[d];
      b += index[d] * toStrides[d];
    }
    memcpy(to + b * element_size, from + a * element_size, (size_t)element_size);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == sizes[d]; --d)
      index[d] = 0;
  }
}
