// RUN: ag-opt %s -ownership-based-buffer-deallocation -canonicalize | FileCheck %s
// A kernel launch reads and writes the buffers it is given (passes/gpu/LaunchEffects.cpp):
// buffer deallocation accepts a function that launches kernels (upstream refuses an op
// of unknown effects) and frees the function's buffers after the launches (all but the
// result); a launch is never erased as dead, even when it is given no buffer.

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<?xf32>, %b: memref<?xf32>) kernel {
      gpu.return
    }
    gpu.func @scalar(%a: f32) kernel {
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @f
  // CHECK:       %[[A:.*]] = memref.alloc
  // CHECK:       %[[B:.*]] = memref.alloc
  // CHECK:       gpu.launch_func @k::@k {{.*}} args(%{{.*}} : memref<?xf32>, %[[A]] : memref<?xf32>)
  // CHECK:       gpu.launch_func @k::@k {{.*}} args(%[[A]] : memref<?xf32>, %[[B]] : memref<?xf32>)
  // CHECK:       gpu.launch_func @k::@scalar
  // CHECK-NEXT:  bufferization.dealloc (%[[A]], %[[B]] : {{.*}}) if ({{.*}}) retain (%[[B]] : memref<?xf32>)
  // CHECK-NEXT:  return %[[B]]
  func.func @f(%x: memref<?xf32>, %n: index, %s: f32) -> memref<?xf32> {
    %c1 = arith.constant 1 : index
    %a = memref.alloc(%n) : memref<?xf32>
    %b = memref.alloc(%n) : memref<?xf32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %a : memref<?xf32>)
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>)
    gpu.launch_func @k::@scalar blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%s : f32)
    return %b : memref<?xf32>
  }
}
