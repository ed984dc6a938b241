// RUN: ag-opt %s -split-input-file -verify-diagnostics -ag-gpu-stage-buffers | FileCheck %s
// RUN: ag-opt %s -split-input-file -verify-diagnostics -ag-gpu-stage-buffers=driver-copies=true | FileCheck %s --check-prefix=DRIVER
// -ag-gpu-stage-buffers: in a function that launches a kernel, the caller's buffers and
// the constants it reads are copied at the entry into buffers of its own (which an
// nvptx object allocates as managed memory), once each, and every use reads the copy; a
// tf.Variable's global is left to the host; a function with no launch is left alone; a
// kernel given a global or the stack is an error.

module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  memref.global "private" @state : memref<4xf32> = dense<0.0>

  gpu.module @k {
    gpu.func @k(%a: memref<?xf32>, %b: memref<4xf32>, %c: memref<?xf32>) kernel {
      gpu.return
    }
  }

  // With driver-copies, the caller's tensors' copies are marked for the CUDA driver
  // (-ag-gpu-driver-copies), the constant's is not.
  // DRIVER-LABEL: func.func @launches
  // DRIVER:       memref.copy %{{.*}}, %{{.*}} {ag.through_driver} : memref<?xf32> to memref<?xf32>
  // DRIVER:       memref.copy %{{.*}}, %{{.*}} {ag.through_driver} : memref<f32> to memref<f32>
  // DRIVER:       memref.get_global @table
  // DRIVER-NEXT:  memref.alloc
  // DRIVER-NEXT:  memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<4xf32>
  // CHECK-LABEL: func.func @launches
  // CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[S:.*]]: memref<f32>)
  // CHECK:       %[[N:.*]] = memref.dim %[[X]], %c0
  // CHECK:       %[[XC:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
  // CHECK:       memref.copy %[[X]], %[[XC]]
  // CHECK:       %[[SC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<f32>
  // CHECK:       memref.copy %[[S]], %[[SC]]
  // CHECK:       %[[T:.*]] = memref.get_global @table
  // CHECK:       %[[TC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  // CHECK:       memref.copy %[[T]], %[[TC]]
  // CHECK-NOT:   memref.get_global @table
  // CHECK:       memref.get_global @state
  // CHECK:       memref.load %[[SC]][]
  // CHECK:       gpu.launch_func @k::@k {{.*}} args(%[[XC]] : memref<?xf32>, %[[TC]] : memref<4xf32>, %[[XC]] : memref<?xf32>)
  // CHECK:       gpu.launch_func @k::@k {{.*}} args(%[[XC]] : memref<?xf32>, %[[TC]] : memref<4xf32>, %[[XC]] : memref<?xf32>)
  func.func @launches(%x: memref<?xf32>, %s: memref<f32>) -> f32 {
    %c1 = arith.constant 1 : index
    %t = memref.get_global @table : memref<4xf32>
    %state = memref.get_global @state : memref<4xf32>
    %v = memref.load %s[] : memref<f32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %t : memref<4xf32>, %x : memref<?xf32>)
    %t2 = memref.get_global @table : memref<4xf32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>, %t2 : memref<4xf32>, %x : memref<?xf32>)
    return %v : f32
  }

  // CHECK-LABEL: func.func @host_only
  // CHECK-NOT:   memref.alloc
  // CHECK-NOT:   memref.copy
  // CHECK:       return
  func.func @host_only(%x: memref<?xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %t = memref.get_global @table : memref<4xf32>
    %v = memref.load %t[%c0] : memref<4xf32>
    return %v : f32
  }
}

// -----

module attributes {gpu.container_module} {
  memref.global "private" @state : memref<4xf32> = dense<0.0>
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @variable() {
    %c1 = arith.constant 1 : index
    %state = memref.get_global @state : memref<4xf32>
    // expected-error @below {{agc cannot run this kernel on the GPU: it would read a tf.Variable's host memory}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%state : memref<4xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @stack() {
    %c1 = arith.constant 1 : index
    %a = memref.alloca() : memref<4xf32>
    // expected-error @below {{it would read the host's stack}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4xf32>)
    return
  }
}
