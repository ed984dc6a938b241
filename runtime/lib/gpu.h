/*===- gpu.h - What the call machinery asks of gpu.c (private to the runtime) ---===*
 *
 * Device memory and streams a call made and did not release are released when the call
 * fails (a failed check, a failed launch: the generated code's own frees are skipped),
 * as alloc.c releases its host blocks. alloc.c's managed blocks come from here.
 *
 *===----------------------------------------------------------------------------------===*/
#ifndef AGC_RUNTIME_GPU_H
#define AGC_RUNTIME_GPU_H

/* The running call's identity (its way out), or NULL outside any call (runtime.c). */
void *agrt_call_frame(void) __attribute__((visibility("hidden")));

/* Releases the device memory and streams the call `frame` made and still holds. */
void agrt_gpu_release_call(void *frame) __attribute__((visibility("hidden")));

/* `bytes` of CUDA managed memory, or NULL (no GPU, or none left); outside a call too. */
void *agrt_gpu_managed_alloc(size_t bytes) __attribute__((visibility("hidden")));

/* Frees what agrt_gpu_managed_alloc gave; errors ignored (at exit the driver may be gone). */
void agrt_gpu_managed_free(void *pointer) __attribute__((visibility("hidden")));

#endif /* AGC_RUNTIME_GPU_H */
