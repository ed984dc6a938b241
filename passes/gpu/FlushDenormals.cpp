//===- FlushDenormals.cpp - float32 denormals as zeros in every kernel -----===//
//
// agc's CPU code runs with the x86-64 flush-to-zero and denormals-are-zero modes the
// runtime sets around each call, as TensorFlow's CPU kernels do (Eigen sets them): a
// float32 denormal reads as a zero of its sign, and a result too small to be normal is
// one. A GPU has no such mode; each float32 instruction says whether it flushes (PTX's
// .ftz), and the NVPTX back end writes .ftz where the function's `denormal-fp-math-f32`
// is preserve-sign. Without it, a kernel and the same loop on the host (or emulated)
// disagree on denormals: 1 / sqrt(1e-45) is 8e22 in a kernel and +inf on the host, and a
// kernel's log compares a denormal unequal to zero (both seen on an H200). So every
// function of a kernel module flushes float32 denormals, as TensorFlow's CUDA kernels
// are built to (flush-to-zero on). float64 has no .ftz: its denormals stay, on the GPU
// as in TensorFlow's GPU kernels.
//
// A comparison of bfloat16 values is made one of their float32 extensions (exact; by
// their bits, which instcombine leaves alone, where it folds fpexts away): the
// back end writes a flushing function's bfloat16 compare as setp.ftz.bf16, which PTX
// does not have (ptxas: "Illegal modifier '.ftz' for instruction 'setp'"), and the
// float32 compare flushes, as the host's (which compares bfloat16 as float32) does. So is
// every extension of a bfloat16 (llvm.fpext), which instcombine would otherwise fold into
// a float32 compare with a constant, making it a bfloat16 compare again.
//
//   llvm.func @k(...) attributes {gpu.kernel, nvvm.kernel}
//     => llvm.func @k(...) attributes {denormal_fp_math_f32 = "preserve-sign,preserve-sign", ...}
//   llvm.fcmp "une" %a, %b : bf16
//     => llvm.fcmp "une" %a', %b' : f32     (x' = bitcast(zext(bitcast(x) : i16) << 16))
//   llvm.fpext %a : bf16 to f32
//     => %a'
//
//===----------------------------------------------------------------------------------===//
#include "ag/passes/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace ag {
#define GEN_PASS_DEF_GPUFLUSHDENORMALS
#include "ag/passes/Passes.h.inc"
} // namespace ag

using namespace mlir;

namespace {

/// bfloat16 `value` as float32: its 16 bits above 16 zeros. Not llvm.fpext, which
/// LLVM's instcombine folds back into a bfloat16 compare (fcmp of two extensions).
Value extended(OpBuilder &b, Location loc, Value value) {
  Value bits = LLVM::ZExtOp::create(b, loc, b.getI32Type(),
                                    LLVM::BitcastOp::create(b, loc, b.getI16Type(), value));
  Value sixteen = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(16));
  return LLVM::BitcastOp::create(b, loc, b.getF32Type(),
                                 LLVM::ShlOp::create(b, loc, bits, sixteen));
}

struct GPUFlushDenormals : ag::impl::GPUFlushDenormalsBase<GPUFlushDenormals> {
  void runOnOperation() override {
    auto mode = StringAttr::get(&getContext(), "preserve-sign,preserve-sign");
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      if (!func.isExternal())
        func.setDenormalFpMathF32Attr(mode);
    });
    getOperation().walk([&](LLVM::FCmpOp compare) {
      if (!compare.getLhs().getType().isBF16()) // kernels compare scalars
        return;
      OpBuilder b(compare);
      compare.getLhsMutable().assign(extended(b, compare.getLoc(), compare.getLhs()));
      compare.getRhsMutable().assign(extended(b, compare.getLoc(), compare.getRhs()));
    });
    // A float32 compare of an extended bfloat16 with a constant that bfloat16 holds
    // exactly (a softplus's x > 87) instcombine narrows to a bfloat16 compare: so every
    // extension of a bfloat16 is its bits too (the same float32, denormals included).
    getOperation().walk([&](LLVM::FPExtOp extension) {
      if (!extension.getArg().getType().isBF16())
        return;
      OpBuilder b(extension);
      Value wide = extended(b, extension.getLoc(), extension.getArg());
      if (!extension.getType().isF32())
        wide = LLVM::FPExtOp::create(b, extension.getLoc(), extension.getType(), wide);
      extension.replaceAllUsesWith(wide);
      extension.erase();
    });
  }
};

} // namespace
