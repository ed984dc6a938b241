//===- DefineMath.cpp - libdevice's simple math, defined in each kernel ----===//
//
// convert-gpu-to-nvvm lowers math (and LLVM's own math intrinsics) in a kernel to calls
// of CUDA's libdevice (__nv_fabsf, __nv_fmaf, __nv_floorf, ...), which the serializer
// links only where an environment variable names a CUDA toolkit: the same compile would
// give PTX that ptxas accepts on one machine and refuses on another. The functions with
// an instruction of their own are defined here, in the kernel module, as that
// instruction (LLVM's intrinsic, which the NVPTX back end lowers to it: fma.rn,
// abs, cvt.rmi, sqrt.rn, ...), internal, so that they are inlined and libdevice is never
// needed. -ag-gpu-map-loops admits no other math in a kernel; a call of another
// libdevice function is an error here.
//
//   llvm.func @__nv_fmaf(f32, f32, f32) -> f32
//     => llvm.func internal @__nv_fmaf(%a, %b, %c) { llvm.intr.fma(%a, %b, %c) }
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace ag {
#define GEN_PASS_DEF_GPUDEFINEMATH
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// The body of libdevice function `name` (float32 with an f suffix, float64 without),
/// built at `b` from the function's arguments; null for one not defined here.
Value define(OpBuilder &b, Location loc, StringRef name, ValueRange args) {
  StringRef base = name;
  if (args.front().getType().isF32() && !base.consume_back("f"))
    return nullptr;
  auto unary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return args.size() == 1 ? Op::create(b, loc, args[0]).getResult() : nullptr;
  };
  auto binary = [&](auto tag) -> Value {
    using Op = decltype(tag);
    return args.size() == 2 ? Op::create(b, loc, args[0], args[1]).getResult() : nullptr;
  };
  if (base == "fabs")
    return unary(LLVM::FAbsOp());
  if (base == "floor")
    return unary(LLVM::FFloorOp());
  if (base == "ceil")
    return unary(LLVM::FCeilOp());
  if (base == "trunc")
    return unary(LLVM::FTruncOp());
  if (base == "sqrt")
    return unary(LLVM::SqrtOp());
  if (base == "rint" || base == "nearbyint")
    return unary(LLVM::RoundEvenOp());
  if (base == "copysign")
    return binary(LLVM::CopySignOp());
  if (base == "fmin")
    return binary(LLVM::MinNumOp());
  if (base == "fmax")
    return binary(LLVM::MaxNumOp());
  if (base == "fma" && args.size() == 3)
    return LLVM::FMAOp::create(b, loc, args[0], args[1], args[2]);
  return nullptr;
}

struct GPUDefineMath : ag::impl::GPUDefineMathBase<GPUDefineMath> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      if (!fn.isExternal() || !fn.getName().starts_with("__nv_"))
        continue;
      LLVM::LLVMFunctionType type = fn.getFunctionType();
      Type result = type.getReturnType();
      bool floats = !type.getParams().empty() && (result.isF32() || result.isF64()) &&
                    llvm::all_of(type.getParams(), [&](Type t) { return t == result; });
      OpBuilder b(fn.getContext());
      Block *entry = nullptr;
      Value value;
      if (floats) {
        entry = fn.addEntryBlock(b);
        b.setInsertionPointToStart(entry);
        value = define(b, fn.getLoc(), fn.getName().drop_front(5), entry->getArguments());
      }
      if (!value) {
        if (entry)
          entry->erase();
        fn.emitError() << "a kernel calls libdevice's " << fn.getName()
                       << ", which agc does not define (-ag-gpu-map-loops should have "
                          "kept this loop on the host)";
        return signalPassFailure();
      }
      LLVM::ReturnOp::create(b, fn.getLoc(), value);
      fn.setLinkage(LLVM::Linkage::Internal);
    }
  }
};

} // namespace
