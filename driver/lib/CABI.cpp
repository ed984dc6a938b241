//===- CABI.cpp - The C entry points of a compiled module, and its header ---===//
//
// For each function `f`, an exported
//
//     int PREFIX_f(const agc_tensor *x, ..., agc_tensor *result, ..., agc_status *status)
//
// with a constant description of f's signature (an agrt_function: parameter names,
// dtypes, shapes; a call of f's C interface `_mlir_ciface_f` with its pointers packed in
// an array, whatever their number). Its general path passes that and its arguments as two
// arrays to the runtime's agrt_invoke, which checks the inputs, builds the memref
// descriptors, calls f and hands the results over. A function without string tensors and
// with at most one result also has a fast path, generated here for its signature: the
// checks of its inputs against constant dtypes, ranks and dimensions, its descriptors on
// the stack, the call through agrt_call, and its result handed over in place; an input
// that fails a check takes the general path, which says what is wrong. `PREFIX_f_v`,
// which takes the tensors in two arrays (agc run calls it), passes their elements to
// PREFIX_f when it has a fast path.
// `PREFIX_init` resets module state.
//
//===----------------------------------------------------------------------------------===//
#include "ag/driver/CABI.h"

#include "agc/runtime.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/InstSimplifyFolder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>
#include <array>
#include <cstddef>

using namespace ag;
using namespace ag::driver;
using namespace llvm;

LoweredModule::LoweredModule() = default;
LoweredModule::LoweredModule(LoweredModule &&) = default;
LoweredModule &LoweredModule::operator=(LoweredModule &&) = default;
LoweredModule::~LoweredModule() = default;

std::string driver::cIdentifier(StringRef name) {
  std::string out;
  for (char c : name)
    out += isAlnum(c) || c == '_' ? c : '_';
  if (out.empty() || isDigit(out[0]))
    out.insert(out.begin(), '_');
  return out;
}

int driver::dtypeCode(StringRef dtype) {
  return StringSwitch<int>(dtype)
      .Case("float32", AGC_FLOAT32)
      .Case("float64", AGC_FLOAT64)
      .Case("int32", AGC_INT32)
      .Case("int64", AGC_INT64)
      .Case("bool", AGC_BOOL)
      .Case("string", AGC_STRING)
      .Case("int8", AGC_INT8)
      .Case("int16", AGC_INT16)
      .Case("uint8", AGC_UINT8)
      .Case("uint16", AGC_UINT16)
      .Case("uint32", AGC_UINT32)
      .Case("uint64", AGC_UINT64)
      .Case("float16", AGC_FLOAT16)
      .Case("bfloat16", AGC_BFLOAT16)
      .Case("complex64", AGC_COMPLEX64)
      .Case("complex128", AGC_COMPLEX128)
      .Default(0);
}

// The fast path writes agc_tensor's fields at the offsets of Tables::tensor.
static_assert(offsetof(agc_tensor, shape) == 8 &&
                  offsetof(agc_tensor, data) == 8 + 8 * AGC_MAX_RANK &&
                  offsetof(agc_tensor, device) == offsetof(agc_tensor, data) + 8 &&
                  offsetof(agc_tensor, owner) == offsetof(agc_tensor, device) + 8,
              "agc_tensor's layout is {i32, i32, [AGC_MAX_RANK x i64], ptr, i32, ptr}");

namespace {
/// Builds the constant tables of one module.
struct Tables {
  Module &m;
  LLVMContext &ctx = m.getContext();
  PointerType *ptr = PointerType::getUnqual(ctx);
  IntegerType *i32 = Type::getInt32Ty(ctx);
  IntegerType *i64 = Type::getInt64Ty(ctx);
  /// agrt_param: {const char *name; agc_dtype dtype; int32_t rank; const int64_t *shape;}
  StructType *param = StructType::get(ctx, {ptr, i32, i32, ptr});
  /// agrt_function: {name; num_inputs; inputs; num_outputs; outputs; call (ENTRY.packed);
  /// flags}
  StructType *function = StructType::get(ctx, {ptr, i32, ptr, i32, ptr, ptr, i32});
  /// agc_tensor: {agc_dtype dtype; int32_t rank; int64_t shape[AGC_MAX_RANK]; void *data;
  /// agc_device device; void *owner;}
  StructType *tensor =
      StructType::get(ctx, {i32, i32, ArrayType::get(i64, AGC_MAX_RANK), ptr, i32, ptr});

  Constant *global(Constant *init, const Twine &name) {
    auto *g = new GlobalVariable(m, init->getType(), /*isConstant=*/true,
                                 GlobalValue::PrivateLinkage, init, name);
    g->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    return g;
  }
  Constant *string(StringRef s, const Twine &name) {
    return global(ConstantDataArray::getString(ctx, s), name);
  }
  Constant *params(ArrayRef<TensorSignature> list, const Twine &name) {
    if (list.empty())
      return ConstantPointerNull::get(ptr);
    std::vector<Constant *> entries;
    for (auto [i, t] : enumerate(list)) {
      std::vector<uint64_t> dims(t.shape.begin(), t.shape.end());
      Constant *shape = dims.empty() ? ConstantPointerNull::get(ptr)
                                     : global(ConstantDataArray::get(ctx, dims),
                                              name + ".shape" + Twine(i));
      entries.push_back(ConstantStruct::get(
          param, {string(t.name, name + ".name" + Twine(i)),
                  ConstantInt::get(i32, dtypeCode(t.dtype)), ConstantInt::get(i32, t.shape.size()),
                  shape}));
    }
    return global(ConstantArray::get(ArrayType::get(param, entries.size()), entries), name);
  }
};
} // namespace

/// `root` and every function it reaches through its instructions' operands, once each,
/// `root` first: the functions it calls, directly or not, and those whose address it
/// passes on (an OpenMP region's outlined body, handed to libomp), declarations included.
/// The one walk behind the questions below about what an entry point's code may do.
static SmallVector<Function *> reachableFunctions(Function *root) {
  SmallVector<Function *> found{root};
  SmallPtrSet<Function *, 16> seen{root};
  for (size_t i = 0; i < found.size(); ++i)
    for (Instruction &inst : instructions(*found[i]))
      for (Value *operand : inst.operands())
        if (auto *callee = dyn_cast<Function>(operand->stripPointerCasts()))
          if (seen.insert(callee).second)
            found.push_back(callee);
  return found;
}

/// Whether a value of `type` is (or holds) a float.
static bool isFloating(Type *type) {
  if (type->isFPOrFPVectorTy())
    return true;
  if (auto *s = dyn_cast<StructType>(type))
    return any_of(s->elements(), isFloating);
  if (auto *a = dyn_cast<ArrayType>(type))
    return isFloating(a->getElementType());
  return false;
}

/// Whether `root`, or any function it calls or passes on (an OpenMP region's outlined
/// body), may do floating-point arithmetic, whose results depend on the denormal mode.
/// Declarations count as floating-point unless they are agc's runtime, the allocator or
/// libomp, which take no float and do none that the mode changes (tf.print formats bits).
static bool usesFloatingPoint(Function *root) {
  for (Function *f : reachableFunctions(root)) {
    if (f->isDeclaration()) {
      StringRef name = f->getName();
      bool quiet = name.starts_with("agrt_") || name.starts_with("_mlir_memref_to_llvm_") ||
                   name == "memrefCopy" || name.starts_with("llvm.") ||
                   name.starts_with("__kmpc_");
      if (!quiet || isFloating(f->getReturnType()) ||
          any_of(f->getFunctionType()->params(), isFloating))
        return true;
      continue;
    }
    for (Instruction &inst : instructions(*f))
      if (isFloating(inst.getType()) ||
          any_of(inst.operands(), [](Value *v) { return isFloating(v->getType()); }))
        return true;
  }
  return false;
}

/// Marks `fn`, an entry point generated here, to be compiled as it is written:
/// `optnone` keeps LLVM's optimization pipeline off it and has the code generator take
/// its fast path (FastISel, no machine-level optimization); `noinline` is what optnone
/// requires. The code below is written as that path wants it: folded as it is built
/// (InstSimplifyFolder), every alloca in the entry block. The cost of a call is about 1
/// ns more than with the whole pipeline (14 ns against 13 for the scalar double of
/// test/bench/call_overhead.py, AMD EPYC), and `agc compile` of the tanh loop is about
/// 2.5 ms (a tenth) shorter: the pipeline ran on each entry point as on the compiled
/// code, for the few instructions it changed.
static void markEntryPoint(Function *fn) {
  fn->addFnAttr(Attribute::OptimizeNone);
  fn->addFnAttr(Attribute::NoInline);
}

/// Moves the allocas of `fn` outside its entry block (all of constant size, none in a
/// loop: entry points have none) to the entry block, where they are static: the frame
/// has a fixed size, and no stack pointer is adjusted on the path that needs one.
static void hoistAllocas(Function &fn) {
  BasicBlock &entry = fn.getEntryBlock();
  for (BasicBlock &block : fn) {
    if (&block == &entry)
      continue;
    for (Instruction &inst : make_early_inc_range(block))
      if (auto *alloca = dyn_cast<AllocaInst>(&inst))
        if (isa<ConstantInt>(alloca->getArraySize()))
          alloca->moveBefore(entry.getFirstInsertionPt());
  }
}

/// `void ENTRY.packed(void **args)`: calls `ciface` with args[0], args[1], ... as its
/// pointer parameters, so that the runtime calls any function, whatever its number of
/// parameters, through one signature.
static Function *packedCall(Module &m, Function *ciface, StringRef entry) {
  LLVMContext &ctx = m.getContext();
  PointerType *ptr = PointerType::getUnqual(ctx);
  Function *packed = Function::Create(FunctionType::get(Type::getVoidTy(ctx), {ptr}, false),
                                      GlobalValue::InternalLinkage, entry + ".packed", m);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", packed));
  markEntryPoint(packed);
  SmallVector<Value *> args;
  for (unsigned k = 0; k < ciface->arg_size(); ++k)
    args.push_back(b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, packed->getArg(0), k)));
  b.CreateCall(ciface, args);
  b.CreateRetVoid();
  return packed;
}

/// Whether `sig`'s entry point gets a fast path: no string tensors (their handles are
/// set up by the general path) and at most one result (several may share an allocation).
static bool hasFastPath(const FunctionSignature &sig) {
  auto string = [](const TensorSignature &t) { return t.dtype == "string"; };
  return sig.results.size() <= 1 && none_of(sig.inputs, string) && none_of(sig.results, string);
}

/// Makes `fn`'s entry block the fast path of `sig`'s entry point (see the file comment),
/// `general` its general path: the inputs checked against the signature, the memref
/// descriptors built on the stack, agrt_call, and the result's descriptor moved into its
/// agc_tensor when it is contiguous (always, for results have the identity layout;
/// otherwise agrt_take_results copies it).
static void addFastPath(Tables &t, const FunctionSignature &sig, Constant *info, Function *fn,
                        BasicBlock *general) {
  Module &m = t.m;
  FunctionCallee call = m.getOrInsertFunction(
      "agrt_call", FunctionType::get(t.i32, {t.ptr, t.ptr, t.ptr}, false));
  FunctionCallee takeResults = m.getOrInsertFunction(
      "agrt_take_results", FunctionType::get(t.i32, {t.ptr, t.ptr, t.ptr, t.ptr}, false));
  Value *status = fn->getArg(fn->arg_size() - 1);
  BasicBlock *entry = BasicBlock::Create(t.ctx, "entry", fn, general);
  IRBuilder<InstSimplifyFolder> b(entry, InstSimplifyFolder(m.getDataLayout()));
  MDNode *likely = MDBuilder(t.ctx).createBranchWeights(1 << 20, 1);
  // Goes on where `ok` holds, to the general path otherwise.
  auto require = [&](Value *ok, const Twine &name) {
    BasicBlock *next = BasicBlock::Create(t.ctx, name, fn, general);
    b.CreateCondBr(ok, next, general, likely);
    b.SetInsertPoint(next);
  };
  auto field = [&](Value *tensor, std::initializer_list<unsigned> path) {
    SmallVector<Value *> indices{b.getInt32(0)};
    for (unsigned k : path)
      indices.push_back(b.getInt32(k));
    return b.CreateInBoundsGEP(t.tensor, tensor, indices);
  };
  auto words = [&](size_t rank) { return ArrayType::get(t.i64, 3 + 2 * rank); };
  auto word = [&](Value *descriptor, size_t rank, size_t k) {
    return b.CreateConstInBoundsGEP2_32(words(rank), descriptor, 0, k);
  };

  // The descriptors, in the entry block (static allocas).
  SmallVector<Value *> descriptors;
  if (!sig.results.empty())
    descriptors.push_back(b.CreateAlloca(words(sig.results[0].shape.size()), nullptr, "result"));
  for (const TensorSignature &in : sig.inputs)
    descriptors.push_back(b.CreateAlloca(words(in.shape.size()), nullptr, in.name + ".memref"));
  Value *args = b.CreateAlloca(ArrayType::get(t.ptr, std::max<size_t>(descriptors.size(), 1)),
                               nullptr, "args");

  SmallVector<Value *> tensors;
  for (size_t k = 0; k + 1 < fn->arg_size(); ++k)
    tensors.push_back(fn->getArg(k));

  // Each input as its signature says: dtype, rank, on the host, every static dimension,
  // no negative one, data unless empty. Its sizes are kept for its descriptor.
  SmallVector<SmallVector<Value *>> sizes;
  for (auto [k, in] : enumerate(sig.inputs)) {
    Value *tensor = tensors[k];
    require(b.CreateIsNotNull(tensor), in.name + ".given");
    Value *ok = b.CreateAnd(
        b.CreateICmpEQ(b.CreateLoad(t.i32, field(tensor, {0})), b.getInt32(dtypeCode(in.dtype))),
        b.CreateICmpEQ(b.CreateLoad(t.i32, field(tensor, {1})),
                       b.getInt32(in.shape.size())));
    ok = b.CreateAnd(ok, b.CreateICmpEQ(b.CreateLoad(t.i32, field(tensor, {4})), b.getInt32(0)));
    Value *empty = b.getFalse();
    sizes.emplace_back();
    for (auto [d, dim] : enumerate(in.shape)) {
      Value *size = b.CreateLoad(t.i64, field(tensor, {2, static_cast<unsigned>(d)}));
      ok = b.CreateAnd(ok, dim >= 0 ? b.CreateICmpEQ(size, b.getInt64(dim))
                                    : b.CreateICmpSGE(size, b.getInt64(0)));
      // (A static dimension says whether the tensor is empty.)
      empty = b.CreateOr(empty, dim >= 0 ? b.getInt1(dim == 0)
                                         : b.CreateICmpEQ(size, b.getInt64(0)));
      sizes.back().push_back(size);
    }
    Value *data = b.CreateLoad(t.ptr, field(tensor, {3}), in.name + ".data");
    ok = b.CreateAnd(ok, b.CreateOr(b.CreateIsNotNull(data), empty));
    require(ok, in.name + ".checked");
    // Its descriptor: {data, data, 0, sizes, row-major strides}.
    size_t rank = in.shape.size();
    Value *descriptor = descriptors[k + !sig.results.empty()];
    b.CreateStore(data, word(descriptor, rank, 0));
    b.CreateStore(data, word(descriptor, rank, 1));
    b.CreateStore(b.getInt64(0), word(descriptor, rank, 2));
    Value *stride = b.getInt64(1);
    for (size_t d = rank; d-- > 0;) {
      b.CreateStore(sizes.back()[d], word(descriptor, rank, 3 + d));
      b.CreateStore(stride, word(descriptor, rank, 3 + rank + d));
      stride = b.CreateMul(stride, sizes.back()[d]);
    }
  }
  Value *out = sig.results.empty() ? nullptr : tensors[sig.inputs.size()];
  if (out)
    require(b.CreateIsNotNull(out), "output.given");
  for (auto [k, descriptor] : enumerate(descriptors))
    b.CreateStore(descriptor, b.CreateConstInBoundsGEP2_32(
                                  ArrayType::get(t.ptr, descriptors.size()), args, 0, k));

  Value *code = b.CreateCall(call, {info, args, status}, "code");
  BasicBlock *failed = BasicBlock::Create(t.ctx, "failed", fn, general);
  BasicBlock *done = BasicBlock::Create(t.ctx, "done", fn, general);
  b.CreateCondBr(b.CreateICmpEQ(code, b.getInt32(0)), done, failed, likely);
  b.SetInsertPoint(failed);
  b.CreateRet(code);
  b.SetInsertPoint(done);
  if (!out) {
    b.CreateRet(b.getInt32(0));
    return;
  }

  // The result: its allocation taken over when contiguous.
  const TensorSignature &result = sig.results[0];
  auto resultDType = static_cast<agc_dtype>(dtypeCode(result.dtype));
  size_t rank = result.shape.size();
  Value *descriptor = descriptors[0];
  Value *allocated = b.CreateLoad(t.ptr, word(descriptor, rank, 0));
  Value *aligned = b.CreateLoad(t.ptr, word(descriptor, rank, 1));
  Value *offset = b.CreateLoad(t.i64, word(descriptor, rank, 2));
  SmallVector<Value *> resultSizes(rank);
  Value *contiguous = b.getTrue();
  Value *expected = b.getInt64(1);
  for (size_t d = rank; d-- > 0;) {
    resultSizes[d] = b.CreateLoad(t.i64, word(descriptor, rank, 3 + d));
    Value *stride = b.CreateLoad(t.i64, word(descriptor, rank, 3 + rank + d));
    contiguous = b.CreateAnd(contiguous,
                             b.CreateOr(b.CreateICmpEQ(resultSizes[d], b.getInt64(1)),
                                        b.CreateICmpEQ(stride, expected)));
    expected = b.CreateMul(expected, resultSizes[d]);
  }
  BasicBlock *copy = BasicBlock::Create(t.ctx, "copy", fn, general);
  BasicBlock *take = BasicBlock::Create(t.ctx, "take", fn, general);
  b.CreateCondBr(contiguous, take, copy, likely);
  b.SetInsertPoint(copy);
  Value *outs = b.CreateAlloca(t.ptr, nullptr, "outputs");
  b.CreateStore(out, outs);
  b.CreateRet(b.CreateCall(takeResults, {info, descriptor, outs, status}));
  b.SetInsertPoint(take);
  b.CreateStore(b.getInt32(resultDType), field(out, {0}));
  b.CreateStore(b.getInt32(rank), field(out, {1}));
  for (unsigned d = 0; d < AGC_MAX_RANK; ++d)
    b.CreateStore(d < rank ? resultSizes[d] : b.getInt64(0), field(out, {2, d}));
  b.CreateStore(b.CreateInBoundsGEP(b.getInt8Ty(), aligned,
                                    b.CreateMul(offset, b.getInt64(agc_dtype_size(resultDType)))),
                field(out, {3}));
  b.CreateStore(b.getInt32(0), field(out, {4}));
  b.CreateStore(allocated, field(out, {5}));
  b.CreateRet(b.getInt32(0));
}

/// Whether `root` calls `name`, directly or through the functions it calls.
static bool reaches(Function *root, StringRef name) {
  return any_of(reachableFunctions(root), [&](Function *f) { return f->getName() == name; });
}

const ScalarCType *ag::driver::scalarCType(StringRef dtype) {
  static const std::pair<StringRef, ScalarCType> table[] = {
      {"float32", {"float", ScalarCType::Float, 32}},
      {"float64", {"double", ScalarCType::Float, 64}},
      {"int8", {"int8_t", ScalarCType::Signed, 8}},
      {"int16", {"int16_t", ScalarCType::Signed, 16}},
      {"int32", {"int32_t", ScalarCType::Signed, 32}},
      {"int64", {"int64_t", ScalarCType::Signed, 64}},
      {"uint8", {"uint8_t", ScalarCType::Unsigned, 8}},
      {"uint16", {"uint16_t", ScalarCType::Unsigned, 16}},
      {"uint32", {"uint32_t", ScalarCType::Unsigned, 32}},
      {"uint64", {"uint64_t", ScalarCType::Unsigned, 64}},
      {"bool", {"bool", ScalarCType::Bool, 8}},
      {"float16", {"uint16_t", ScalarCType::Unsigned, 16}},
      {"bfloat16", {"uint16_t", ScalarCType::Unsigned, 16}},
  };
  for (const auto &[name, type] : table)
    if (name == dtype)
      return &type;
  return nullptr;
}

/// Whether `sig` also gets a scalar entry point: every input and result 0-d, each of a
/// dtype with a C scalar type, and a function that runs on the host (`kernels` or
/// `managed`: its outputs would be the device's).
static bool hasScalarEntry(const FunctionSignature &sig, bool kernels, bool managed) {
  auto scalar = [](const TensorSignature &t) {
    return t.shape.empty() && scalarCType(t.dtype);
  };
  return !kernels && !managed && all_of(sig.inputs, scalar) && all_of(sig.results, scalar);
}

/// The name of the function attribute that marks a scalar entry point, its value the
/// name of the function it calls (see callScalarEntriesDirectly).
static constexpr StringLiteral kScalarBody = "agc-scalar-body";

/// Instructions in `root` and in the functions it reaches (once each): the size of what
/// a scalar entry point's body duplicates when inlined.
static size_t instructionCount(Function *root) {
  size_t count = 0;
  for (Function *f : reachableFunctions(root))
    count += f->getInstructionCount();
  return count;
}

/// `int ENTRY_scalar(T x, ..., T *result, ..., agc_status *status)` for a function whose
/// inputs and results are all 0-d (hasScalarEntry): the values themselves, no agc_tensor,
/// no descriptor, and nothing allocated for the results. Its body, `ENTRY.scalar(void
/// **args)` (args: the inputs' addresses, then the results'), builds 0-d descriptors
/// over the input values, calls the C interface inlined (so that LLVM, which knows the
/// runtime's allocator, drops each result's allocation: stored once, read once, freed),
/// and writes each result through its pointer. The entry point runs it through
/// agrt_call, which sets the denormal mode and catches a failed check (no result is then
/// written); after LLVM's optimization, callScalarEntriesDirectly calls it directly
/// where its optimized code calls nothing that needs that.
static void addScalarEntry(Tables &t, const FunctionSignature &sig, Function *ciface,
                           Constant *inputs, Constant *outputs, int flags, StringRef entry) {
  Module &m = t.m;
  LLVMContext &ctx = t.ctx;
  const DataLayout &layout = m.getDataLayout();
  size_t numInputs = sig.inputs.size(), numResults = sig.results.size();
  auto bits = [&](const TensorSignature &s) {
    return IntegerType::get(ctx, 8 * agc_dtype_size(static_cast<agc_dtype>(dtypeCode(s.dtype))));
  };

  // The body.
  Function *body = Function::Create(FunctionType::get(Type::getVoidTy(ctx), {t.ptr}, false),
                                    GlobalValue::InternalLinkage, entry + ".scalar", m);
  body->setDoesNotThrow();
  // Compiled as the program is (optimized, denormals flushed: agrt_call or the direct
  // call sets the mode), so that the C interface inlines into it.
  for (StringRef attribute : {"denormal-fp-math", "denormal-fp-math-f32"})
    if (ciface->hasFnAttribute(attribute))
      body->addFnAttr(ciface->getFnAttribute(attribute));
  {
    IRBuilder<InstSimplifyFolder> b(BasicBlock::Create(ctx, "entry", body),
                                    InstSimplifyFolder(layout));
    StructType *descriptor0 = StructType::get(ctx, {t.ptr, t.ptr, t.i64});
    auto arg = [&](size_t k) {
      return b.CreateLoad(t.ptr, b.CreateConstInBoundsGEP1_64(t.ptr, body->getArg(0), k));
    };
    Value *results = numResults ? b.CreateAlloca(ArrayType::get(descriptor0, numResults),
                                                 nullptr, "results")
                                : nullptr;
    SmallVector<Value *> operands;
    if (results)
      operands.push_back(results);
    for (size_t k = 0; k < numInputs; ++k) {
      Value *d = b.CreateAlloca(descriptor0, nullptr, sig.inputs[k].name + ".memref");
      Value *value = arg(k);
      b.CreateStore(value, b.CreateStructGEP(descriptor0, d, 0));
      b.CreateStore(value, b.CreateStructGEP(descriptor0, d, 1));
      b.CreateStore(b.getInt64(0), b.CreateStructGEP(descriptor0, d, 2));
      operands.push_back(d);
    }
    CallInst *call = b.CreateCall(ciface, operands);
    // Inlined, up to a size: past it the inliner decides (the result's allocation then
    // stays, and the call is as correct).
    if (instructionCount(ciface) <= 4000)
      call->addFnAttr(Attribute::AlwaysInline);
    FunctionCallee release = m.getOrInsertFunction(
        "_mlir_memref_to_llvm_free", FunctionType::get(Type::getVoidTy(ctx), {t.ptr}, false));
    SmallVector<Value *> allocations;
    for (size_t r = 0; r < numResults; ++r) {
      auto field = [&](unsigned k) {
        return b.CreateInBoundsGEP(ArrayType::get(descriptor0, numResults), results,
                                   {b.getInt32(0), b.getInt32(r), b.getInt32(k)});
      };
      Value *allocated = b.CreateLoad(t.ptr, field(0));
      Value *aligned = b.CreateLoad(t.ptr, field(1));
      Value *offset = b.CreateLoad(t.i64, field(2));
      IntegerType *type = bits(sig.results[r]);
      Value *at = b.CreateInBoundsGEP(type, aligned, offset);
      b.CreateStore(b.CreateLoad(type, at), arg(numInputs + r));
      // Freed once where results share an allocation (`return x, x`).
      Value *own = b.getTrue();
      for (Value *earlier : allocations)
        own = b.CreateAnd(own, b.CreateICmpNE(allocated, earlier));
      allocations.push_back(allocated);
      b.CreateCall(release, {b.CreateSelect(own, allocated, ConstantPointerNull::get(t.ptr))});
    }
    b.CreateRetVoid();
  }

  Constant *info = t.global(
      ConstantStruct::get(t.function,
                          {t.string(entry, entry + ".scalar.fn"),
                           ConstantInt::get(t.i32, numInputs), inputs,
                           ConstantInt::get(t.i32, numResults), outputs, body,
                           ConstantInt::get(t.i32, flags)}),
      entry + ".scalar.info");

  // The entry point.
  SmallVector<Type *> types;
  for (const TensorSignature &in : sig.inputs) {
    const ScalarCType &c = *scalarCType(in.dtype);
    types.push_back(c.kind != ScalarCType::Float ? static_cast<Type *>(bits(in))
                    : c.bits == 32               ? Type::getFloatTy(ctx)
                                                 : Type::getDoubleTy(ctx));
  }
  types.append(numResults + 1, t.ptr);
  Function *fn = Function::Create(FunctionType::get(t.i32, types, false),
                                  GlobalValue::ExternalLinkage, entry + "_scalar", m);
  fn->setDoesNotThrow();
  fn->addFnAttr(kScalarBody, body->getName());
  for (auto [k, in] : enumerate(sig.inputs))
    fn->getArg(k)->setName(in.name);
  Value *status = fn->getArg(types.size() - 1);
  status->setName("status");
  IRBuilder<InstSimplifyFolder> b(BasicBlock::Create(ctx, "entry", fn),
                                  InstSimplifyFolder(layout));
  Value *args = b.CreateAlloca(ArrayType::get(t.ptr, std::max<size_t>(numInputs + numResults, 1)),
                               nullptr, "args");
  auto slot = [&](size_t k) {
    return b.CreateConstInBoundsGEP2_32(ArrayType::get(t.ptr, numInputs + numResults), args, 0, k);
  };
  for (size_t k = 0; k < numInputs; ++k) {
    Value *value = b.CreateAlloca(types[k], nullptr, sig.inputs[k].name + ".value");
    b.CreateStore(fn->getArg(k), value);
    b.CreateStore(value, slot(k));
  }
  FunctionCallee nullOutput = m.getOrInsertFunction(
      "agrt_null_output", FunctionType::get(t.i32, {t.ptr, t.i32, t.ptr}, false));
  for (size_t r = 0; r < numResults; ++r) {
    Value *out = fn->getArg(numInputs + r);
    BasicBlock *given = BasicBlock::Create(ctx, "output.given", fn);
    BasicBlock *missing = BasicBlock::Create(ctx, "output.missing", fn);
    b.CreateCondBr(b.CreateIsNotNull(out), given, missing,
                   MDBuilder(ctx).createBranchWeights(1 << 20, 1));
    b.SetInsertPoint(missing);
    b.CreateRet(b.CreateCall(nullOutput, {info, b.getInt32(r), status}));
    b.SetInsertPoint(given);
    b.CreateStore(out, slot(numInputs + r));
  }
  FunctionCallee call = m.getOrInsertFunction(
      "agrt_call", FunctionType::get(t.i32, {t.ptr, t.ptr, t.ptr}, false));
  b.CreateRet(b.CreateCall(call, {info, args, status}, "code"));
  hoistAllocas(*fn);
  markEntryPoint(fn);
}

/// Whether `sig`'s function runs GPU kernels (it takes inputs in device memory), and
/// whether its outputs are managed memory (an nvptx object's).
static std::pair<bool, bool> onDevice(const LoweredModule &lowered, const FunctionSignature &sig) {
  Function *ciface = lowered.module->getFunction("_mlir_ciface_" + sig.name);
  if (!ciface)
    return {false, false};
  return {reaches(ciface, "mgpuLaunchKernel"), reaches(ciface, "agrt_gpu_aligned_alloc")};
}

std::vector<std::pair<std::string, std::string>>
driver::entryPointNames(const LoweredModule &lowered, const FunctionSignature &sig,
                        StringRef prefix) {
  std::string entry = (prefix + "_" + sig.name).str();
  std::vector<std::pair<std::string, std::string>> names{
      {entry, "entry point"}, {entry + "_v", "entry point with arrays"}};
  auto [kernels, managed] = onDevice(lowered, sig);
  if (hasScalarEntry(sig, kernels, managed))
    names.emplace_back(entry + "_scalar", "scalar entry point");
  return names;
}

void driver::addEntryPoints(LoweredModule &lowered, StringRef prefix) {
  Module &m = *lowered.module;
  // Only the entry points are exported.
  for (Function &f : m.functions())
    if (!f.isDeclaration())
      f.setLinkage(GlobalValue::InternalLinkage);
  // (llvm.global_ctors and _dtors, an nvptx object's kernels recorded and released,
  // stay what they are: appending arrays the linker gathers.)
  for (GlobalVariable &g : m.globals())
    if (!g.isDeclaration() && !g.hasAppendingLinkage())
      g.setLinkage(GlobalValue::InternalLinkage);

  Tables t{m};
  FunctionCallee invoke = m.getOrInsertFunction(
      "agrt_invoke", FunctionType::get(t.i32, {t.ptr, t.ptr, t.ptr, t.ptr}, false));
  for (const FunctionSignature &sig : lowered.functions) {
    std::string entry = (prefix + "_" + sig.name).str();
    Function *ciface = m.getFunction("_mlir_ciface_" + sig.name);
    if (!ciface)
      report_fatal_error(Twine("agc: no C interface for ") + sig.name);
    // A function that runs GPU kernels takes inputs in device memory, and the outputs
    // of an nvptx object's functions are managed memory where a GPU is usable: neither
    // has the fast path (which takes host inputs and says its outputs are host memory).
    bool kernels = reaches(ciface, "mgpuLaunchKernel");
    bool managed = reaches(ciface, "agrt_gpu_aligned_alloc");
    int flags = (usesFloatingPoint(ciface) ? 0 : AGRT_NO_FLOAT_MODE) |
                (kernels ? AGRT_RUNS_KERNELS : 0) |
                (kernels && reaches(ciface, "agc_uses_gpu") ? AGRT_CPU_VERSION : 0);
    Constant *inputs = t.params(sig.inputs, entry + ".inputs");
    Constant *outputs = t.params(sig.results, entry + ".outputs");
    Constant *info = t.global(
        ConstantStruct::get(t.function,
                            {t.string(entry, entry + ".fn"),
                             ConstantInt::get(t.i32, sig.inputs.size()), inputs,
                             ConstantInt::get(t.i32, sig.results.size()), outputs,
                             packedCall(m, ciface, entry), ConstantInt::get(t.i32, flags)}),
        entry + ".info");
    if (hasScalarEntry(sig, kernels, managed))
      addScalarEntry(t, sig, ciface, inputs, outputs, flags, entry);

    SmallVector<Type *> types(sig.inputs.size() + sig.results.size() + 1, t.ptr);
    Function *fn = Function::Create(FunctionType::get(t.i32, types, false),
                                    GlobalValue::ExternalLinkage, entry, m);
    fn->setDoesNotThrow();
    for (auto [k, in] : enumerate(sig.inputs))
      fn->getArg(k)->setName(in.name);
    fn->getArg(types.size() - 1)->setName("status");
    BasicBlock *general = BasicBlock::Create(t.ctx, "general", fn);
    IRBuilder<> b(general);
    auto array = [&](size_t first, size_t count, StringRef name) -> Value * {
      if (count == 0)
        return ConstantPointerNull::get(t.ptr);
      Value *slots = b.CreateAlloca(ArrayType::get(t.ptr, count), nullptr, name);
      for (size_t k = 0; k < count; ++k)
        b.CreateStore(fn->getArg(first + k), b.CreateConstGEP2_32(ArrayType::get(t.ptr, count),
                                                                  slots, 0, k));
      return slots;
    };
    Value *ins = array(0, sig.inputs.size(), "inputs");
    Value *outs = array(sig.inputs.size(), sig.results.size(), "outputs");
    b.CreateRet(b.CreateCall(invoke, {info, ins, outs, fn->getArg(types.size() - 1)}));
    bool fast = hasFastPath(sig) && !kernels && !managed;
    if (fast)
      addFastPath(t, sig, info, fn, general);
    hoistAllocas(*fn);
    markEntryPoint(fn);

    // The same with the tensors in arrays, for callers that build calls at run time.
    Function *v = Function::Create(FunctionType::get(t.i32, {t.ptr, t.ptr, t.ptr}, false),
                                   GlobalValue::ExternalLinkage, entry + "_v", m);
    v->setDoesNotThrow();
    markEntryPoint(v);
    // With a fast path: the arrays' elements passed to the entry point above (called,
    // not inlined: one copy of the fast path), unless an array is missing.
    BasicBlock *vGeneral = BasicBlock::Create(t.ctx, "general", v);
    IRBuilder<> vb(vGeneral);
    vb.CreateRet(vb.CreateCall(invoke, {info, v->getArg(0), v->getArg(1), v->getArg(2)}));
    if (fast) {
      BasicBlock *vEntry = BasicBlock::Create(t.ctx, "entry", v, vGeneral);
      vb.SetInsertPoint(vEntry);
      SmallVector<Value *> tensors;
      for (auto [k, n] : enumerate(std::array<size_t, 2>{sig.inputs.size(), sig.results.size()})) {
        if (n == 0)
          continue;
        Value *array = v->getArg(k);
        BasicBlock *next = BasicBlock::Create(t.ctx, k == 0 ? "inputs.given" : "outputs.given",
                                              v, vGeneral);
        vb.CreateCondBr(vb.CreateIsNotNull(array), next, vGeneral);
        vb.SetInsertPoint(next);
        for (size_t i = 0; i < n; ++i)
          tensors.push_back(vb.CreateLoad(t.ptr, vb.CreateConstInBoundsGEP1_64(t.ptr, array, i)));
      }
      tensors.push_back(v->getArg(2));
      CallInst *direct = vb.CreateCall(fn, tensors);
      direct->setIsNoInline();
      vb.CreateRet(direct);
    }
  }

  Function *init = Function::Create(FunctionType::get(Type::getVoidTy(t.ctx), false),
                                    GlobalValue::ExternalLinkage, (prefix + "_init").str(), m);
  markEntryPoint(init);
  IRBuilder<> b(BasicBlock::Create(t.ctx, "entry", init));
  if (Function *reset = m.getFunction("__agc_init"))
    b.CreateCall(reset);
  b.CreateRetVoid();
  // Teardown: the state is static storage in the object, so nothing to release on the
  // CPU; the entry point exists so that callers written now stay right when a module
  // holds device buffers.
  Function *teardown = Function::Create(FunctionType::get(Type::getVoidTy(t.ctx), false),
                                        GlobalValue::ExternalLinkage,
                                        (prefix + "_teardown").str(), m);
  markEntryPoint(teardown);
  IRBuilder<>(BasicBlock::Create(t.ctx, "entry", teardown)).CreateRetVoid();
}

/// Whether `root`'s code, as optimized, calls nothing but intrinsics, libm and the
/// half-precision conversions of libgcc, and touches no thread-local: no allocation,
/// no check that can fail (agrt_fail*), no thread (libomp), no string, no kernel. Such
/// code needs none of agrt_call's bookkeeping but the denormal mode.
static bool callsNothing(Function *root) {
  static const StringSet<> pure = [] {
    StringSet<> names{"__extendhfsf2", "__extendhfdf2", "__truncsfhf2", "__truncdfhf2",
                      "__truncsfbf2"};
    for (StringRef base :
         {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil",
          "copysign", "cos", "cosh", "erf", "erfc", "exp", "exp2", "expm1", "fabs", "floor",
          "fma", "fmod", "hypot", "lgamma", "log", "log10", "log1p", "log2", "nextafter",
          "pow", "rint", "round", "roundeven", "sin", "sinh", "sqrt", "tan", "tanh", "tgamma",
          "trunc"}) {
      names.insert(base);
      names.insert((base + "f").str());
    }
    return names;
  }();
  for (Function *f : reachableFunctions(root)) {
    if (f->isIntrinsic())
      continue; // a trap is a call of one, refused below
    if (f->isDeclaration()) {
      if (!pure.contains(f->getName()))
        return false;
      continue;
    }
    for (Instruction &inst : instructions(*f)) {
      for (Value *operand : inst.operands())
        if (auto *g = dyn_cast<GlobalValue>(operand->stripPointerCasts()))
          if (g->isThreadLocal())
            return false;
      auto *call = dyn_cast<CallBase>(&inst);
      if (!call)
        continue;
      if (!call->getCalledFunction() || isa<InlineAsm>(call->getCalledOperand()))
        return false;
      Intrinsic::ID id = call->getCalledFunction()->getIntrinsicID();
      if (id == Intrinsic::trap || id == Intrinsic::debugtrap || id == Intrinsic::ubsantrap)
        return false;
    }
  }
  return true;
}

void driver::callScalarEntriesDirectly(Module &m) {
  bool x86 = m.getTargetTriple().isX86();
  for (Function &fn : m) {
    if (fn.isDeclaration() || !fn.hasFnAttribute(kScalarBody))
      continue;
    Function *body = m.getFunction(fn.getFnAttribute(kScalarBody).getValueAsString());
    fn.removeFnAttr(kScalarBody);
    // The denormal mode is set here on x86-64 (elsewhere, by agrt_call).
    if (!body || !callsNothing(body))
      continue;
    bool floating = usesFloatingPoint(body);
    if (floating && !x86)
      continue;
    CallInst *call = nullptr;
    for (Instruction &inst : instructions(fn))
      if (auto *c = dyn_cast<CallInst>(&inst))
        if (Function *callee = c->getCalledFunction(); callee && callee->getName() == "agrt_call")
          call = c;
    if (!call)
      continue;
    Value *args = call->getArgOperand(1), *status = call->getArgOperand(2);
    // What is left of agrt_call: the status says AGC_OK, and the mode is TensorFlow's
    // (denormals flushed, as run_call sets it) during the call and the caller's after.
    IRBuilder<> b(call);
    Instruction *clear = SplitBlockAndInsertIfThen(b.CreateIsNotNull(status), call, false);
    b.SetInsertPoint(clear);
    b.CreateStore(b.getInt32(AGC_OK), status);
    b.CreateStore(b.getInt8(0), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), status,
                                                               offsetof(agc_status, message)));
    b.SetInsertPoint(call);
    Value *csr = nullptr, *mode = nullptr;
    Function *stmxcsr = nullptr, *ldmxcsr = nullptr;
    if (floating) {
      stmxcsr = Intrinsic::getOrInsertDeclaration(&m, Intrinsic::x86_sse_stmxcsr);
      ldmxcsr = Intrinsic::getOrInsertDeclaration(&m, Intrinsic::x86_sse_ldmxcsr);
      BasicBlock &entry = fn.getEntryBlock();
      csr = IRBuilder<>(&entry, entry.getFirstInsertionPt())
                .CreateAlloca(b.getInt32Ty(), nullptr, "mxcsr");
      b.CreateCall(stmxcsr, {csr});
      mode = b.CreateLoad(b.getInt32Ty(), csr, "mode");
      b.CreateStore(b.CreateOr(mode, b.getInt32(0x8040)), csr); // FTZ and DAZ
      b.CreateCall(ldmxcsr, {csr});
    }
    b.CreateCall(body, {args});
    if (floating) {
      // The caller's control bits, with the exception flags the call raised.
      b.CreateCall(stmxcsr, {csr});
      Value *raised = b.CreateAnd(b.CreateLoad(b.getInt32Ty(), csr), b.getInt32(0x3F));
      b.CreateStore(b.CreateOr(b.CreateAnd(mode, b.getInt32(~0x3Fu)), raised), csr);
      b.CreateCall(ldmxcsr, {csr});
    }
    call->replaceAllUsesWith(b.getInt32(AGC_OK));
    call->eraseFromParent();
  }
}

/// `float32[5, None]`.
static std::string typeText(const TensorSignature &t) {
  std::string out = t.dtype + "[";
  for (auto [i, d] : enumerate(t.shape))
    out += (i ? ", " : "") + (d < 0 ? std::string("None") : std::to_string(d));
  return out + "]";
}


/// A Python parameter's name as a parameter of a C (or C++) prototype: `name` as a C
/// identifier, with a `_` after it where it is a keyword of C or C++ (Python's `default`,
/// `case`, `char`, ...) or the name of one of the entry point's own parameters
/// (`result`, `status`), which would not compile.
static std::string cParameterName(StringRef name) {
  static const StringSet<> reserved = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool",
      "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl",
      "concept", "const", "consteval", "constexpr", "constinit", "const_cast", "continue",
      "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
      "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
      "protected", "public", "register", "reinterpret_cast", "requires", "restrict", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
      "typeid", "typename", "typeof", "union", "unsigned", "using", "virtual", "void",
      "volatile", "wchar_t", "while", "xor", "xor_eq", "inputs", "outputs", "status"};
  std::string out = cIdentifier(name);
  StringRef text(out);
  bool result = text.consume_front("result") && all_of(text, isDigit);
  if (reserved.contains(out) || result || (out.size() > 1 && out[0] == '_' && isUpper(out[1])))
    out += '_';
  return out;
}

/// The C parameter names of `inputs` (cParameterName), each distinct: one that two
/// parameters would share (`default` and `default_`) gets more `_`.
static std::vector<std::string> cParameterNames(ArrayRef<TensorSignature> inputs) {
  std::vector<std::string> names;
  StringSet<> taken;
  for (const TensorSignature &in : inputs) {
    std::string name = cParameterName(in.name);
    while (!taken.insert(name).second)
      name += '_';
    names.push_back(name);
  }
  return names;
}

std::string driver::cHeader(const LoweredModule &lowered, StringRef prefix, StringRef source,
                             ArrayRef<std::string> defines) {
  std::string guard = "AGC_" + prefix.upper() + "_H";
  std::string out;
  raw_string_ostream os(out);
  os << "/* " << prefix << ".h: the C interface of " << source << ", generated by agc. Do not "
     << "edit.\n *\n"
     << " * Link " << prefix << ".o with agc's runtime and libm, e.g.\n"
     << " *     cc app.c " << prefix << ".o $(pkg-config --cflags --libs agc-runtime) -lm\n"
     << " * agc/runtime.h says what agc_tensor and agc_status hold, who owns the outputs\n"
     << " * (free them with agc_tensor_free), and which functions may run concurrently.\n"
     << " * Each function returns AGC_OK (0), or an error code with a message in *status.\n";
  if (!defines.empty()) {
    os << " *\n * Specialized with";
    for (const std::string &d : defines) {
      // A value is Python text: keep the comment closed whatever it holds.
      std::string safe = d;
      for (size_t at = safe.find("*/"); at != std::string::npos; at = safe.find("*/", at))
        safe.replace(at, 2, "* /");
      os << " -D " << safe;
    }
    os << "\n";
  }
  os << " */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n#include \"agc/runtime.h\"\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const FunctionSignature &sig : lowered.functions) {
    os << "/* " << sig.pythonName << "(";
    for (auto [i, in] : enumerate(sig.inputs))
      os << (i ? ", " : "") << in.name << ": " << typeText(in);
    os << ") -> ";
    if (sig.results.empty())
      os << "nothing";
    for (auto [i, r] : enumerate(sig.results))
      os << (i ? ", " : "") << typeText(r);
    if (sig.loc.isValid())
      os << "; " << llvm::sys::path::filename(sig.loc.file) << ":" << sig.loc.begin.line;
    if (llvm::StringRef(sig.resultStructure).contains('"')) {
      // A dict: which result is which key (each number is a result's index).
      std::string safe = sig.resultStructure;
      for (size_t at = safe.find("*/"); at != std::string::npos; at = safe.find("*/", at))
        safe.replace(at, 2, "* /");
      os << "\n   results by key: " << safe;
    }
    // Which run on a GPU (--target=nvptx or cpu,nvptx).
    Function *ciface = lowered.module->getFunction("_mlir_ciface_" + sig.name);
    if (ciface && reaches(ciface, "mgpuLaunchKernel"))
      os << (reaches(ciface, "agc_uses_gpu")
                 ? "\n   Runs GPU kernels where agc_uses_gpu() says so, its CPU version elsewhere."
                 : "\n   Runs GPU kernels: without a usable GPU the call fails with AGC_NO_GPU.")
         << "\n   Inputs may be in GPU memory (AGC_CUDA) where it runs its kernels; outputs are"
            "\n   then CUDA managed memory (AGC_CUDA_MANAGED).";
    auto resultName = [&](size_t i) {
      return "result" + (sig.results.size() > 1 ? std::to_string(i) : std::string());
    };
    std::vector<std::string> names = cParameterNames(sig.inputs);
    os << " */\nint " << prefix << "_" << sig.name << "(";
    for (const std::string &name : names)
      os << "const agc_tensor *" << name << ", ";
    for (size_t i = 0; i < sig.results.size(); ++i)
      os << "agc_tensor *" << resultName(i) << ", ";
    os << "agc_status *status);\n";
    os << "/* The same, with the inputs and the outputs in arrays. */\n"
       << "int " << prefix << "_" << sig.name << "_v(const agc_tensor *const *inputs, "
       << "agc_tensor *const *outputs, agc_status *status);\n";
    if (lowered.module->getFunction(prefix.str() + "_" + sig.name + "_scalar")) {
      os << "/* The same with C values (every input and output is 0-d): no agc_tensor, nothing\n"
         << " * allocated; each result is written through its pointer, and only on success. */\n"
         << "int " << prefix << "_" << sig.name << "_scalar(";
      for (auto [in, name] : zip(sig.inputs, names))
        os << scalarCType(in.dtype)->name << " " << name << ", ";
      for (auto [i, r] : enumerate(sig.results))
        os << scalarCType(r.dtype)->name << " *" << resultName(i) << ", ";
      os << "agc_status *status);\n";
    }
    os << "\n";
  }
  os << "/* Sets the module's tf.Variables to their initial values (they start there). */\n"
     << "void " << prefix << "_init(void);\n"
     << "/* Releases what the module holds (nothing on the CPU: its state is static). */\n"
     << "void " << prefix << "_teardown(void);\n\n"
     << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  return out;
}

/// The functions of `array` (llvm.global_ctors or llvm.global_dtors), by priority (a
/// stable sort: equal ones in order), and the array removed.
static std::vector<Function *> takeStructors(Module &m, StringRef array) {
  std::vector<std::pair<uint64_t, Function *>> found;
  GlobalVariable *g = m.getNamedGlobal(array);
  if (!g)
    return {};
  if (auto *entries = dyn_cast_or_null<ConstantArray>(g->getInitializer()))
    for (Value *entry : entries->operands()) {
      auto *fields = cast<ConstantStruct>(entry);
      uint64_t priority = cast<ConstantInt>(fields->getOperand(0))->getZExtValue();
      if (auto *fn = dyn_cast<Function>(fields->getOperand(1)->stripPointerCasts()))
        found.emplace_back(priority, fn);
    }
  g->eraseFromParent();
  llvm::stable_sort(found, [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<Function *> functions;
  for (const auto &[priority, fn] : found)
    functions.push_back(fn);
  return functions;
}

/// An exported function `name` that calls `functions` in order.
static void defineCalls(Module &m, StringRef name, ArrayRef<Function *> functions) {
  Function *all = Function::Create(FunctionType::get(Type::getVoidTy(m.getContext()), false),
                                   GlobalValue::ExternalLinkage, name, m);
  IRBuilder<> b(BasicBlock::Create(m.getContext(), "entry", all));
  for (Function *fn : functions)
    b.CreateCall(fn);
  b.CreateRetVoid();
}

bool driver::exportStructors(LoweredModule &lowered, StringRef prefix) {
  Module &m = *lowered.module;
  std::vector<Function *> constructors = takeStructors(m, "llvm.global_ctors");
  std::vector<Function *> destructors = takeStructors(m, "llvm.global_dtors");
  if (constructors.empty() && destructors.empty())
    return false;
  defineCalls(m, (prefix + "_constructors").str(), constructors);
  // The destructors run in the opposite order.
  std::reverse(destructors.begin(), destructors.end());
  defineCalls(m, (prefix + "_destructors").str(), destructors);
  return true;
}

void driver::joinGPUVersion(LoweredModule &lowered, std::unique_ptr<Module> gpu) {
  Module &m = *lowered.module;
  // The GPU version's definitions that other modules could see, renamed; what is
  // internal the linker renames where it must; declarations (the runtime's) are shared.
  for (Function &f : gpu->functions())
    if (!f.isDeclaration() && !f.hasLocalLinkage())
      f.setName(f.getName() + ".gpu");
  for (GlobalVariable &g : gpu->globals())
    if (!g.isDeclaration() && !g.hasLocalLinkage() && !g.hasAppendingLinkage())
      g.setName(g.getName() + ".gpu");
  // The entry points to choose between: each function's C interface, the initializer.
  std::vector<std::string> dispatched;
  for (const FunctionSignature &sig : lowered.functions)
    dispatched.push_back("_mlir_ciface_" + sig.name);
  if (lowered.hasState)
    dispatched.push_back("__agc_init");
  for (const std::string &name : dispatched)
    if (Function *cpu = m.getFunction(name))
      cpu->setName(name + ".cpu");
  if (Linker::linkModules(m, std::move(gpu)))
    report_fatal_error("agc: the CPU and GPU versions did not link");

  LLVMContext &ctx = m.getContext();
  FunctionCallee usesGPU =
      m.getOrInsertFunction("agc_uses_gpu", FunctionType::get(Type::getInt32Ty(ctx), false));
  for (const std::string &name : dispatched) {
    Function *cpu = m.getFunction(name + ".cpu");
    Function *onGPU = m.getFunction(name + ".gpu");
    if (!cpu || !onGPU)
      report_fatal_error(Twine("agc: no CPU or GPU version of ") + name);
    Function *choose = Function::Create(cpu->getFunctionType(), GlobalValue::ExternalLinkage,
                                        name, m);
    choose->copyAttributesFrom(cpu);
    for (Function *version : {cpu, onGPU})
      version->setLinkage(GlobalValue::InternalLinkage);
    BasicBlock *entry = BasicBlock::Create(ctx, "entry", choose);
    BasicBlock *gpuBlock = BasicBlock::Create(ctx, "gpu", choose);
    BasicBlock *cpuBlock = BasicBlock::Create(ctx, "cpu", choose);
    IRBuilder<> b(entry);
    b.CreateCondBr(b.CreateIsNotNull(b.CreateCall(usesGPU)), gpuBlock, cpuBlock);
    SmallVector<Value *> args;
    for (Argument &a : choose->args())
      args.push_back(&a);
    for (auto [block, version] : {std::pair{gpuBlock, onGPU}, std::pair{cpuBlock, cpu}}) {
      b.SetInsertPoint(block);
      CallInst *call = b.CreateCall(version, args);
      if (call->getType()->isVoidTy())
        b.CreateRetVoid();
      else
        b.CreateRet(call);
    }
  }
}
