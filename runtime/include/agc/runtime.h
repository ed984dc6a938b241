/*===- agc/runtime.h - The C interface of agc-compiled code ----------------===*
 *
 * `agc compile model.py` writes model.o and model.h. model.h declares, for each compiled
 * function `f` of model.py, an entry point
 *
 *     int model_f(const agc_tensor *x, ..., agc_tensor *result0, ..., agc_status *status);
 *
 * taking one agc_tensor per tensor parameter (Python-valued parameters were fixed at
 * compile time with -D) and filling one agc_tensor per tensor the function returns (a
 * tuple is flattened, in order). It returns AGC_OK (0), or an error code with a message
 * in `status` (which may be NULL): an input whose dtype or shape does not match the
 * signature, a dynamic shape that does not match inside the function, a failed
 * tf.debugging assertion. It never aborts.
 *
 * A function whose inputs and results are all 0-d also has
 *
 *     int model_f_scalar(float x, ..., float *result0, ..., agc_status *status);
 *
 * taking and giving the values themselves (float16 and bfloat16 as uint16_t bits):
 * nothing allocated, nothing to free; each result is written only on success.
 *
 * Ownership: inputs stay the caller's and are only read. Each output's data is allocated
 * by the call and owned by the caller: release it with agc_tensor_free (which leaves the
 * descriptor empty; freeing an empty tensor does nothing), never with free(): it comes
 * from agc's allocator (see Memory below). On an error no output is set. A string
 * tensor (AGC_STRING) holds one agc_string per element: an input's point to the caller's
 * bytes; an output's bytes are in the output's own allocation, freed with it.
 *
 * Module state: the module-level tf.Variables of model.py live in model.o. model_init()
 * sets them to their initial values (they start there, so calling it is needed only to
 * reset them); model_teardown() releases what the module holds (nothing on the CPU). Functions that read or write variables must not run concurrently with
 * each other or with model_init; functions that touch no variable are reentrant and may
 * run on any number of threads at once.
 *
 * Link: model.o with this library (`pkg-config --libs agc-runtime`) and -lm.
 *
 *===----------------------------------------------------------------------------------===*/
#ifndef AGC_RUNTIME_H
#define AGC_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The dtypes agc compiles. */
typedef enum agc_dtype {
  AGC_FLOAT32 = 1,
  AGC_FLOAT64 = 2,
  AGC_INT32 = 3,
  AGC_INT64 = 4,
  AGC_BOOL = 5,     /* one byte per element, 0 or 1 */
  AGC_STRING = 6,   /* one agc_string per element */
  AGC_INT8 = 7,
  AGC_INT16 = 8,
  AGC_UINT8 = 9,
  AGC_UINT16 = 10,
  AGC_UINT32 = 11,
  AGC_UINT64 = 12,
  AGC_FLOAT16 = 13, /* IEEE 754 binary16, as uint16_t bits (or _Float16) */
  AGC_BFLOAT16 = 14, /* the top 16 bits of a float32, as uint16_t */
  AGC_COMPLEX64 = 15, /* two floats per element: real, imaginary (C's float _Complex) */
  AGC_COMPLEX128 = 16 /* two doubles per element: real, imaginary (double _Complex) */
} agc_dtype;
/* An element of a string tensor (tf.string): `size` bytes at `data`, any bytes (TensorFlow's
 * strings are byte strings, not NUL-terminated). In an input, the caller's. In an output,
 * the bytes are in the output's own allocation, after its agc_string array: they live until
 * agc_tensor_free releases the output. */
typedef struct agc_string {
  const char *data;
  int64_t size;
} agc_string;

/* The highest rank a tensor may have. */
#define AGC_MAX_RANK 8

/* Where a tensor's data is.
 * AGC_HOST: host memory; every function takes and reads it.
 * AGC_CUDA: memory of the CUDA device (cuMemAlloc, cudaMalloc), which the host cannot
 *   read. Only a function that runs GPU kernels takes it as an input (the header says
 *   "Runs GPU kernels"; in a --target=cpu,nvptx object, where agc_uses_gpu() is 1): it
 *   copies it on the device, as it copies host inputs to the device, with no trip
 *   through the host. Other functions refuse it (AGC_INVALID_ARGUMENT).
 * AGC_CUDA_MANAGED: CUDA managed memory (cuMemAllocManaged, cudaMallocManaged), which
 *   the host and the device both read and write: the outputs of a --target=nvptx
 *   object's functions are this where a GPU is usable (pass them on to another call, or
 *   read them on the host; agc_tensor_free releases them as any output). Every function
 *   takes it as an input. */
typedef enum agc_device { AGC_HOST = 0, AGC_CUDA = 1, AGC_CUDA_MANAGED = 2 } agc_device;

/* A dense tensor: `rank` dimensions of `shape`, row-major, contiguous, at `data`. */
typedef struct agc_tensor {
  agc_dtype dtype;
  int32_t rank;
  int64_t shape[AGC_MAX_RANK];
  void *data;
  agc_device device;
  void *owner; /* outputs: the allocation agc_tensor_free releases; NULL for inputs */
} agc_tensor;

/* Error codes. */
enum {
  AGC_OK = 0,
  AGC_INVALID_ARGUMENT = 1, /* an input's dtype or shape does not match the signature */
  AGC_RUNTIME_ERROR = 2,    /* a check inside the function failed */
  AGC_OUT_OF_MEMORY = 3,
  AGC_NO_GPU = 4 /* a GPU function, and no CUDA driver or device here (see agc_gpu_available) */
};

/* What went wrong: an error code and a message for people. */
typedef struct agc_status {
  int code;
  char message[512];
} agc_status;

/* A tensor of `rank` dimensions `shape` over caller-owned `data` (no copy), in host
 * memory; set `device` to AGC_CUDA or AGC_CUDA_MANAGED for data elsewhere. */
agc_tensor agc_tensor_wrap(agc_dtype dtype, int32_t rank, const int64_t *shape, void *data);
/* The number of elements of `t`. */
int64_t agc_tensor_size(const agc_tensor *t);
/* Bytes per element of `dtype` (0 for an unknown dtype). */
size_t agc_dtype_size(agc_dtype dtype);
/* "float32", "int64", ... */
const char *agc_dtype_name(agc_dtype dtype);
/* Releases an output's data and empties the descriptor; nothing for an input or an empty
 * tensor. */
void agc_tensor_free(agc_tensor *t);

/* Memory. Buffers of 1 MiB and more that compiled code frees (its temporaries, and
 * outputs given back with agc_tensor_free) are kept, up to 1 GiB by default, and reused
 * by later calls: a function called in a loop on large tensors then touches the same
 * memory each time rather than fresh pages. */
/* Gives the kept buffers back to the system; returns how many bytes that was. */
size_t agc_release_memory(void);
/* Sets how many bytes may be kept (0: none); what is kept now is released if over it. */
void agc_set_memory_cache_limit(size_t bytes);
/* How many bytes are kept now. */
size_t agc_cached_memory(void);

/* Threads. Work on large tensors (elementwise chains, reductions, matmuls of at least
 * 32768 points) runs on several threads, through LLVM's OpenMP runtime (link with -lomp);
 * smaller work, staged control flow and scalar code run on the calling thread. Results do
 * not depend on the thread count. */
/* Sets how many threads the parallel work of later calls uses, in every thread of the
 * process (n < 1: libomp's default, OMP_NUM_THREADS or one per core). Without a call,
 * the environment variable AGC_NUM_THREADS, read at the first parallel work. */
void agc_set_num_threads(int n);
/* How many threads parallel work uses now. */
int agc_num_threads(void);

/* NVIDIA GPUs. The runtime loads the CUDA driver (libcuda.so.1, or the file the
 * environment variable AGC_CUDA_DRIVER names) at the first use, not at link time: a
 * program linked with it starts on machines without CUDA. Whether a CUDA device is usable
 * here: 1, or 0 with `status` (when not NULL) saying why not (AGC_NO_GPU: no driver, no
 * device, or the driver's error). Thread-safe; the driver is loaded once. */
int agc_gpu_available(agc_status *status);

/* Whether the functions of an object compiled with --target=cpu,nvptx run their GPU
 * version here (1) or their CPU version (0): the GPU's where agc_gpu_available says one
 * is usable, unless the environment variable AGC_DEVICE is "cpu" ("gpu" asks for the
 * GPU's whatever, so that a call fails with AGC_NO_GPU where none is). Decided at the
 * first call of this function, for the life of the process. */
int agc_uses_gpu(void);

/* The CUDA stream (a CUstream or cudaStream_t of device 0's primary context, the one the
 * CUDA runtime uses) on which the calls this thread makes later run their copies and
 * kernels, after the work queued on it before the call; NULL (the default): streams of
 * the runtime's own. A call still returns when its work is done (it waits for the
 * stream). The stream stays the caller's: agc never destroys it. */
void agc_set_stream(void *stream);
/* This thread's stream for calls (NULL: the runtime's own). */
void *agc_stream(void);

/*===----------------------------------------------------------------------------------===*
 * Below: what generated code calls. Not for programs that use agc-compiled code.
 *===----------------------------------------------------------------------------------===*/

/* GPU kernels, as MLIR's gpu-to-llvm lowering and the translation of its launches call
 * them (its `mgpu` names and signatures), on the CUDA driver API. Loading and unloading
 * a module run from an object's constructors and destructors: they record the kernels'
 * image, which the first launch, inside a call, gives the driver; they never fail. The
 * rest run inside a call only: an error (no GPU, a failed launch, out of device memory)
 * ends the call with its status, as a failed check does. */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int opt_level);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y, intptr_t grid_z,
                      intptr_t block_x, intptr_t block_y, intptr_t block_z,
                      int32_t shared_bytes, void *stream, void **params, void **extra,
                      size_t param_count);
/* Fails the call where a launch of grid_x x grid_y x grid_z blocks of block_x x block_y x
 * block_z threads is past what a CUDA device takes (2^31 - 1 x 65,535 x 65,535 blocks,
 * 1,024 threads of at most 1,024 x 1,024 x 64): agc's own mistake, which the driver
 * would refuse, or, past 2^32 blocks, run on fewer. mgpuLaunchKernel calls it, and so
 * do the launches that --gpu-emulate runs on the CPU. */
void agrt_gpu_check_launch(intptr_t grid_x, intptr_t grid_y, intptr_t grid_z,
                           intptr_t block_x, intptr_t block_y, intptr_t block_z);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared);
void mgpuMemFree(void *pointer, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
/* The buffers of an nvptx object's host code: CUDA managed memory, which host and device
 * both address, where a GPU is usable; host memory (agrt_aligned_alloc) where none is.
 * agrt_free frees both. Fails the call (AGC_OUT_OF_MEMORY) rather than return NULL. */
void *agrt_gpu_aligned_alloc(size_t align, size_t size);

/* One input or output of a compiled function, as its signature types it. */
typedef struct agrt_param {
  const char *name;     /* the Python parameter; "" for an output */
  agc_dtype dtype;
  int32_t rank;
  const int64_t *shape; /* -1 for a dynamic dimension */
} agrt_param;

/* A compiled function: its entry point's name, its parameters and results, and a call
 * of its C interface (`_mlir_ciface_NAME`, taking pointers to memref descriptors, the
 * results' first) with those pointers in an array. */
typedef struct agrt_function {
  const char *name;
  int32_t num_inputs;
  const agrt_param *inputs;
  int32_t num_outputs;
  const agrt_param *outputs;
  void (*call)(void **descriptors);
  int32_t flags; /* AGRT_NO_FLOAT_MODE, ... */
} agrt_function;

/* The function does no floating-point arithmetic (agc found none in it or in what it
 * calls): the call leaves the floating-point mode as it is, rather than set and restore
 * the flushing of denormals around it. */
#define AGRT_NO_FLOAT_MODE 1
/* The function runs GPU kernels (it takes AGC_CUDA inputs), ... */
#define AGRT_RUNS_KERNELS 2
/* ... or, in a --target=cpu,nvptx object, its GPU version does, where agc_uses_gpu()
 * says so (elsewhere its CPU version runs, which does not take them). */
#define AGRT_CPU_VERSION 4

/* Checks `inputs`, calls `fn`, fills `outputs`: an entry point's general path (the only
 * one for functions with string tensors or several results, and the one that reports a
 * bad input). */
int agrt_invoke(const agrt_function *fn, const agc_tensor *const *inputs,
                agc_tensor *const *outputs, agc_status *status);
/* The call alone, for an entry point that checked its inputs and built the descriptors
 * `args` itself (`fn->call`'s argument): sets `status` (AGC_OK, or why the call failed,
 * after freeing what it allocated) and returns its code. */
int agrt_call(const agrt_function *fn, void **args, agc_status *status);
/* A scalar entry point (model_f_scalar) given NULL for output `index`: sets `status`
 * as agrt_invoke does for a NULL output and returns AGC_INVALID_ARGUMENT. */
int agrt_null_output(const agrt_function *fn, int32_t index, agc_status *status);
/* Fills `outputs` from the result descriptors at `block`, as agrt_invoke does after the
 * call (copying a result that is not contiguous or shares its allocation). */
int agrt_take_results(const agrt_function *fn, const int64_t *block,
                      agc_tensor *const *outputs, agc_status *status);

/* Reports a failed check inside the running function: the call returns
 * AGC_RUNTIME_ERROR with `message`, and what it allocated is freed. Does not return. */
void agrt_fail(const char *message);
/* The same, with "{0}", "{1}", "{2}" in `message` replaced by v0, v1, v2 in decimal. */
void agrt_fail_values(const char *message, int64_t v0, int64_t v1, int64_t v2);
/* An allocation of `bytes` inside the running function failed: the call returns
 * AGC_OUT_OF_MEMORY. Does not return. */
void agrt_fail_out_of_memory(size_t bytes);
/* The call returns `code` (an agc error code) with `message`. Does not return. */
void agrt_fail_code(int code, const char *message);
/* The width of a parallel region (0: libomp's default). */
int32_t agrt_num_threads(void);

/* Strings inside a call. Compiled code holds a string element as a handle: the address
 * of an agc_string (0 is the empty string), whose bytes live until the call returns (an
 * input's are the caller's; the others are the call's, freed when it returns, after the
 * outputs are copied out). */
int64_t agrt_string_literal(const char *bytes, int64_t size);
int64_t agrt_string_concat(int64_t a, int64_t b);
int32_t agrt_string_equal(int64_t a, int64_t b);
int32_t agrt_string_length(int64_t s, int32_t utf8_chars);
int64_t agrt_string_upper(int64_t s);
int64_t agrt_string_lower(int64_t s);
/* tf.strings.substr with unit BYTE: `pos` may count from the end; out of range fails, with
 * the message after `where` ("file.py:12:5: ", the op's place in the source). */
int64_t agrt_string_substr(int64_t s, int64_t pos, int64_t len, const char *where);
/* tf.strings.as_string: of an integer, of a bool, and of a float (`precision` < 0 for the
 * default, `how` 0 fixed, 1 scientific, 2 shortest; `width` < 0 for none, `fill` the
 * printf flag TensorFlow takes it as: ' ', '+', '-', '0' or '#', 0 for none). */
int64_t agrt_string_from_int(int64_t v, int32_t width, int32_t fill);
int64_t agrt_string_from_bool(int32_t v, int32_t width, int32_t fill);
int64_t agrt_string_from_float(double v, int32_t precision, int32_t how, int32_t width,
                               int32_t fill);
/* tf.strings.to_number: fails (TensorFlow's message, after `where`) on text that is not a
 * number; `bits` 32 or 64 (floats: parsed as float or as double). */
double agrt_string_to_float(int64_t s, int32_t bits, const char *where);
int64_t agrt_string_to_int(int64_t s, int32_t bits, const char *where);

/* tf.print: begin(stream 1 stdout or 2 stderr, summarize), then items, then end. */
void agrt_print_begin(int32_t stream, int64_t summarize);
void agrt_print_text(const char *text);
void agrt_print_f32(int64_t rank, void *descriptor);
void agrt_print_f64(int64_t rank, void *descriptor);
void agrt_print_i32(int64_t rank, void *descriptor);
void agrt_print_i64(int64_t rank, void *descriptor);
void agrt_print_i1(int64_t rank, void *descriptor);
void agrt_print_string(int64_t rank, void *descriptor);
void agrt_print_i8(int64_t rank, void *descriptor);
void agrt_print_i16(int64_t rank, void *descriptor);
void agrt_print_uint8(int64_t rank, void *descriptor);
void agrt_print_uint16(int64_t rank, void *descriptor);
void agrt_print_uint32(int64_t rank, void *descriptor);
void agrt_print_uint64(int64_t rank, void *descriptor);
void agrt_print_f16(int64_t rank, void *descriptor);
void agrt_print_bf16(int64_t rank, void *descriptor);
/* Complex tensors: each element '?', as TensorFlow 2.21's tf.print writes them. */
void agrt_print_c64(int64_t rank, void *descriptor);
void agrt_print_c128(int64_t rank, void *descriptor);
/* float16 and bfloat16 bits to and from float (round to nearest even). */
float agc_float16_to_float(uint16_t bits);
uint16_t agc_float_to_float16(float v);
float agc_bfloat16_to_float(uint16_t bits);
uint16_t agc_float_to_bfloat16(float v);
void agrt_print_end(void);
/* tf.strings.format: begin, then the items as for tf.print, then end gives the string. */
void agrt_format_begin(int64_t summarize);
int64_t agrt_format_end(void);

/* The allocator of everything compiled code allocates, and of outputs' data. `align`: a
 * power of two (16 and up; less is taken as 16); agrt_alloc aligns to 64. */
void *agrt_aligned_alloc(size_t align, size_t size);
void *agrt_alloc(size_t size);
void agrt_free(void *p);
/* The same, under the names MLIR's generic allocation functions have. */
void *_mlir_memref_to_llvm_aligned_alloc(size_t align, size_t size);
void _mlir_memref_to_llvm_free(void *p);

/* Copies between strided memrefs (MLIR's memref.copy of non-contiguous buffers). */
void memrefCopy(int64_t element_size, void *source, void *destination);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AGC_RUNTIME_H */
