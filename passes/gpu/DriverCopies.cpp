//===- DriverCopies.cpp - the caller's tensors copied by the CUDA driver --===//
//
// -ag-gpu-stage-buffers copies each tensor the caller passes to a function with kernels
// into a buffer of its own, and marks the copy `ag.through_driver` in an nvptx object.
// A memref.copy is the host's memcpy, which faults on device memory; the CUDA driver's
// copy reads host and device memory alike (unified addressing: the address says which).
// So each marked copy becomes a gpu.memcpy on a stream of its own (the caller's, where
// it gave one: agc_set_stream), waited for before anything reads the copy:
//
//   memref.copy %x, %x1 {ag.through_driver} : memref<?xf32> to memref<?xf32>
//     => %s = gpu.wait async
//        %t = gpu.memcpy async [%s] %x1, %x : memref<?xf32>, memref<?xf32>
//        gpu.wait [%t]
//
// After buffer deallocation, which cannot see through gpu.wait (an op of unknown memory
// effects to it).
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace ag {
#define GEN_PASS_DEF_GPUDRIVERCOPIES
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

struct GPUDriverCopies : ag::impl::GPUDriverCopiesBase<GPUDriverCopies> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> marked;
    getOperation().walk([&](memref::CopyOp copy) {
      if (copy->hasAttr(ag::kThroughDriverAttr))
        marked.push_back(copy);
    });
    for (memref::CopyOp copy : marked) {
      OpBuilder b(copy);
      Location loc = copy.getLoc();
      auto token = b.getType<gpu::AsyncTokenType>();
      auto stream = gpu::WaitOp::create(b, loc, token, ValueRange());
      auto memcpy = gpu::MemcpyOp::create(b, loc, token, ValueRange{stream.getAsyncToken()},
                                          copy.getTarget(), copy.getSource());
      gpu::WaitOp::create(b, loc, Type(), ValueRange{memcpy.getAsyncToken()});
      copy.erase();
    }
  }
};

} // namespace
