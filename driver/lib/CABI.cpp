//===- CABI.cpp - The C entry points of a compiled module, and its header ---===//
//
// For each function `f`, an exported
//
//     int PREFIX_f(const agc_tensor *x, ..., agc_tensor *result, ..., agc_status *status)
//
// that passes a constant description of f's signature (an agrt_function: parameter
// names, dtypes, shapes; a call of f's C interface `_mlir_ciface_f` with its pointers
// packed in an array, whatever their number) and its arguments as two
// arrays to the runtime's agrt_invoke, which checks the inputs, builds the memref
// descriptors, calls f and hands the results over. `PREFIX_init` resets module state.
//
//===----------------------------------------------------------------------------------===//
#include "ag/driver/CABI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"

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

/// agc_dtype's value for a dtype name (agc/runtime.h).
static int dtypeCode(StringRef dtype) {
  return StringSwitch<int>(dtype)
      .Case("float32", 1)
      .Case("float64", 2)
      .Case("int32", 3)
      .Case("int64", 4)
      .Case("bool", 5)
      .Case("string", 6)
      .Case("int8", 7)
      .Case("int16", 8)
      .Case("uint8", 9)
      .Case("uint16", 10)
      .Case("uint32", 11)
      .Case("uint64", 12)
      .Case("float16", 13)
      .Case("bfloat16", 14)
      .Case("complex64", 15)
      .Case("complex128", 16)
      .Default(0);
}

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
  SmallVector<Function *> work{root};
  SmallPtrSet<Function *, 16> seen{root};
  while (!work.empty()) {
    Function *f = work.pop_back_val();
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
    for (Instruction &inst : instructions(*f)) {
      if (isFloating(inst.getType()))
        return true;
      for (Value *operand : inst.operands()) {
        if (isFloating(operand->getType()))
          return true;
        if (auto *callee = dyn_cast<Function>(operand->stripPointerCasts()))
          if (seen.insert(callee).second)
            work.push_back(callee);
      }
    }
  }
  return false;
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
  SmallVector<Value *> args;
  for (unsigned k = 0; k < ciface->arg_size(); ++k)
    args.push_back(b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, packed->getArg(0), k)));
  b.CreateCall(ciface, args);
  b.CreateRetVoid();
  return packed;
}

void driver::addEntryPoints(LoweredModule &lowered, StringRef prefix) {
  Module &m = *lowered.module;
  // Only the entry points are exported.
  for (Function &f : m.functions())
    if (!f.isDeclaration())
      f.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &g : m.globals())
    if (!g.isDeclaration())
      g.setLinkage(GlobalValue::InternalLinkage);

  Tables t{m};
  FunctionCallee invoke = m.getOrInsertFunction(
      "agrt_invoke", FunctionType::get(t.i32, {t.ptr, t.ptr, t.ptr, t.ptr}, false));
  for (const FunctionSignature &sig : lowered.functions) {
    std::string entry = (prefix + "_" + sig.name).str();
    Function *ciface = m.getFunction("_mlir_ciface_" + sig.name);
    if (!ciface)
      report_fatal_error(Twine("agc: no C interface for ") + sig.name);
    Constant *info = t.global(
        ConstantStruct::get(t.function,
                            {t.string(entry, entry + ".fn"),
                             ConstantInt::get(t.i32, sig.inputs.size()),
                             t.params(sig.inputs, entry + ".inputs"),
                             ConstantInt::get(t.i32, sig.results.size()),
                             t.params(sig.results, entry + ".outputs"),
                             packedCall(m, ciface, entry),
                             ConstantInt::get(t.i32, usesFloatingPoint(ciface)
                                                         ? 0
                                                         : 1 /* AGRT_NO_FLOAT_MODE */)}),
        entry + ".info");

    SmallVector<Type *> types(sig.inputs.size() + sig.results.size() + 1, t.ptr);
    Function *fn = Function::Create(FunctionType::get(t.i32, types, false),
                                    GlobalValue::ExternalLinkage, entry, m);
    fn->setDoesNotThrow();
    IRBuilder<> b(BasicBlock::Create(t.ctx, "entry", fn));
    auto array = [&](size_t first, size_t count, StringRef name) -> Value * {
      if (count == 0)
        return ConstantPointerNull::get(t.ptr);
      Value *slots = b.CreateAlloca(ArrayType::get(t.ptr, count), nullptr, name);
      for (size_t k = 0; k < count; ++k)
        b.CreateStore(fn->getArg(first + k), b.CreateConstGEP2_32(ArrayType::get(t.ptr, count),
                                                                  slots, 0, k));
      return slots;
    };
    for (auto [k, in] : enumerate(sig.inputs))
      fn->getArg(k)->setName(in.name);
    fn->getArg(types.size() - 1)->setName("status");
    Value *ins = array(0, sig.inputs.size(), "inputs");
    Value *outs = array(sig.inputs.size(), sig.results.size(), "outputs");
    b.CreateRet(b.CreateCall(invoke, {info, ins, outs, fn->getArg(types.size() - 1)}));

    // The same with the tensors in arrays, for callers that build calls at run time.
    Function *v = Function::Create(FunctionType::get(t.i32, {t.ptr, t.ptr, t.ptr}, false),
                                   GlobalValue::ExternalLinkage, entry + "_v", m);
    v->setDoesNotThrow();
    IRBuilder<> vb(BasicBlock::Create(t.ctx, "entry", v));
    vb.CreateRet(vb.CreateCall(invoke, {info, v->getArg(0), v->getArg(1), v->getArg(2)}));
  }

  Function *init = Function::Create(FunctionType::get(Type::getVoidTy(t.ctx), false),
                                    GlobalValue::ExternalLinkage, (prefix + "_init").str(), m);
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
  IRBuilder<>(BasicBlock::Create(t.ctx, "entry", teardown)).CreateRetVoid();
}

/// `float32[5, None]`.
static std::string typeText(const TensorSignature &t) {
  std::string out = t.dtype + "[";
  for (auto [i, d] : enumerate(t.shape))
    out += (i ? ", " : "") + (d < 0 ? std::string("None") : std::to_string(d));
  return out + "]";
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
    os << " */\nint " << prefix << "_" << sig.name << "(";
    for (const TensorSignature &in : sig.inputs)
      os << "const agc_tensor *" << cIdentifier(in.name) << ", ";
    for (size_t i = 0; i < sig.results.size(); ++i)
      os << "agc_tensor *result" << (sig.results.size() > 1 ? std::to_string(i) : "") << ", ";
    os << "agc_status *status);\n";
    os << "/* The same, with the inputs and the outputs in arrays. */\n"
       << "int " << prefix << "_" << sig.name << "_v(const agc_tensor *const *inputs, "
       << "agc_tensor *const *outputs, agc_status *status);\n\n";
  }
  os << "/* Sets the module's tf.Variables to their initial values (they start there). */\n"
     << "void " << prefix << "_init(void);\n"
     << "/* Releases what the module holds (nothing on the CPU: its state is static). */\n"
     << "void " << prefix << "_teardown(void);\n\n"
     << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  return out;
}
