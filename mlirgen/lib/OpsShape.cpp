//===- OpsShape.cpp - Matmul, transpose, reshape, concat, shape -----------------===//
//
// linalg.matmul / linalg.batch_matmul and linalg.transpose; tf.reshape, tf.expand_dims and
// tf.squeeze as tensor reshapes with their run-time checks; tf.concat and tf.stack;
// tf.shape, tf.size and tf.rank.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace ag;
namespace arith = mlir::arith;

mlir::Value ag::transposed(MLIRGen &gen, mlir::Value t, llvm::ArrayRef<int64_t> perm,
                              mlir::Location l) {
  auto type = llvm::cast<RankedTensorType>(t.getType());
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t p : perm) {
    shape.push_back(type.getDimSize(p));
    sizes.push_back(gen.dimSize(t, p, l));
  }
  auto outType = RankedTensorType::get(shape, type.getElementType());
  mlir::Value init = gen.empty(outType, sizes, l);
  return mlir::linalg::TransposeOp::create(gen.builder, l, t, init, perm).getResult()[0];
}

bool MLIRGen::emitMatmul(TFOp, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "a"), *y = args.get(1, "b");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value a = x && y && type ? operand(*x, args.loc, out.dtype) : nullptr;
  mlir::Value b = a ? operand(*y, args.loc, out.dtype) : nullptr;
  if (!b)
    return false;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  if (rank != 2 && rank != 3)
    return fail(args.loc, "tf.matmul of rank " + llvm::Twine(rank) + " is not supported by agc's "
                          "code generator (ranks 2 and 3 are)");
  if (llvm::cast<RankedTensorType>(a.getType()).getRank() != rank ||
      llvm::cast<RankedTensorType>(b.getType()).getRank() != rank)
    return fail(args.loc, "tf.matmul with broadcast batch dimensions is not supported by agc's "
                          "code generator");
  auto flag = [&](unsigned i, llvm::StringRef kw) { // a Python bool or int, as the tracer reads it
    const Value *v = args.get(i, kw);
    return v && (v->kind == Value::Kind::Bool || v->kind == Value::Kind::Int) && v->i;
  };
  llvm::SmallVector<int64_t> swap = rank == 2 ? llvm::SmallVector<int64_t>{1, 0}
                                              : llvm::SmallVector<int64_t>{0, 2, 1};
  // adjoint_x is transpose_x for the real dtypes tf.matmul takes (the tracer refused both).
  if (flag(2, "transpose_a") || flag(4, "adjoint_a"))
    a = transposed(*this, a, swap, l);
  if (flag(3, "transpose_b") || flag(5, "adjoint_b"))
    b = transposed(*this, b, swap, l);
  // The sizes that must agree: the inner dimensions, and the batch ones.
  auto agree = [&](int64_t da, int64_t db, const llvm::Twine &what) {
    mlir::Value x = dimSize(a, da, l), y = dimSize(b, db, l);
    if (x == y)
      return;
    mlir::Value guarded[] = {a, b};
    check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, x, y),
          "tf.matmul: " + what + " differ: {0} in a, {1} in b", {x, y}, l, guarded);
    a = guarded[0];
    b = guarded[1];
  };
  agree(rank - 1, rank - 2, "a's columns and b's rows");
  if (rank == 3)
    agree(0, 0, "the batch sizes");
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < rank - 1; ++d)
    sizes.push_back(dimSize(a, d, l));
  sizes.push_back(dimSize(b, rank - 1, l));
  mlir::Value init = filled(type, sizes, scalarConstant(0, type.getElementType(), l), l);
  mlir::Value r = rank == 2
                      ? mlir::linalg::MatmulOp::create(builder, l, mlir::TypeRange{type},
                                                       mlir::ValueRange{a, b}, mlir::ValueRange{init})
                            .getResult(0)
                      : mlir::linalg::BatchMatmulOp::create(builder, l, mlir::TypeRange{type},
                                                            mlir::ValueRange{a, b}, mlir::ValueRange{init})
                            .getResult(0);
  out.ir = handle(r);
  return true;
}

bool MLIRGen::emitTranspose(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "a");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value t = x && type ? operand(*x, args.loc) : nullptr;
  if (!t)
    return false;
  int64_t rank = type.getRank();
  llvm::SmallVector<int64_t> perm;
  const Value *p = op == TFOp::MatrixTranspose ? nullptr : args.get(1, "perm");
  if (op == TFOp::MatrixTranspose) {
    // The typing rule saw rank 2 or more.
    perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(perm[rank - 1], perm[rank - 2]);
  } else if (!p || p->kind == Value::Kind::None) {
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  } else if (p->isPySequence()) {
    for (const Value &e : p->items()) {
      if (e.kind != Value::Kind::Int)
        return fail(args.loc, "perm must be Python ints for agc's code generator");
      perm.push_back(e.i < 0 ? e.i + rank : e.i);
    }
  } else {
    return fail(args.loc, "perm must be a Python list for agc's code generator");
  }
  // The identity permutation (a scalar's, for one) moves nothing.
  if (llvm::equal(perm, llvm::seq<int64_t>(0, rank)))
    return produce(out, t, type, loc(args.loc));
  mlir::Value r = transposed(*this, t, perm, loc(args.loc));
  return produce(out, r, type, loc(args.loc));
}

bool MLIRGen::emitReshape(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, op == TFOp::Reshape ? "tensor" : "input");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value t = x && type ? operand(*x, args.loc) : nullptr;
  if (!t)
    return false;
  mlir::Location l = loc(args.loc);
  auto inType = llvm::cast<RankedTensorType>(t.getType());
  llvm::SmallVector<mlir::Value> sizes(type.getRank());
  // Each check guards the tensor reshaped.
  auto checkInput = [&](mlir::Value ok, const llvm::Twine &message,
                        llvm::ArrayRef<mlir::Value> values, mlir::Location l) {
    mlir::Value guarded[] = {t};
    check(ok, message, values, l, guarded);
    t = guarded[0];
  };
  // squeeze: the dimensions it removes; one unknown while compiling must be 1 at run time.
  std::optional<llvm::SmallVector<bool, 4>> squeezed;
  if (op == TFOp::Squeeze) {
    std::string why;
    squeezed = analysis::squeezedDims(x->shape, args.get(1, "axis"), why);
    if (!squeezed)
      return fail(args.loc, why);
    for (int64_t k = 0; k < inType.getRank(); ++k)
      if ((*squeezed)[k] && inType.isDynamicDim(k)) {
        mlir::Value size = dimSize(t, k, l);
        checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, size, indexConstant(1, l)),
              "tf.squeeze: dimension " + llvm::Twine(k) + " has size {0}, not 1", {size}, l);
      }
  }
  if (!type.hasStaticShape()) {
    if (op == TFOp::Reshape) {
      const Value *shape = args.get(1, "shape");
      if (shape->isTensorLike()) {
        mlir::Value s = operand(*shape, args.loc);
        if (!s)
          return false;
        sizes = sizesFromShapeTensor(type, s, l);
        mlir::Value count = indexConstant(1, l);
        for (mlir::Value size : sizes) {
          checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sge, size, indexConstant(0, l)),
                "tf.reshape: agc takes no -1 or other negative size ({0}) in a shape given as a "
                "tensor; give the shape as a list",
                {size}, l);
          count = arith::MulIOp::create(builder, l, count, size);
        }
        t = checkReshape(t, count, l);
      }
      // A Python shape: its -1 is the element count over the product of the others.
      if (shape->isPySequence()) {
        mlir::Value total = indexConstant(1, l);
        for (int64_t d = 0; d < inType.getRank(); ++d)
          total = arith::MulIOp::create(builder, l, total, dimSize(t, d, l));
        mlir::Value known = indexConstant(1, l);
        int64_t unknown = -1;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          const Value &e = shape->items()[d];
          if (e.kind == Value::Kind::Int && e.i >= 0) {
            sizes[d] = indexConstant(e.i, l);
            known = arith::MulIOp::create(builder, l, known, sizes[d]);
          } else if (e.kind == Value::Kind::Int) {
            unknown = d;
          } else {
            mlir::Value v = operand(e, args.loc);
            if (!v)
              return false;
            sizes[d] = arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                                  mlir::tensor::ExtractOp::create(builder, l, v, mlir::ValueRange{}));
            checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sge, sizes[d],
                                             indexConstant(0, l)),
                       "tf.reshape: agc takes no -1 or other negative size ({0}) from a tensor "
                       "in the shape; give the -1 as a Python int",
                       {sizes[d]}, l);
            known = arith::MulIOp::create(builder, l, known, sizes[d]);
          }
        }
        if (unknown >= 0) {
          // TensorFlow's two errors: no size to infer from, or no whole number of rows.
          mlir::Value zero = indexConstant(0, l);
          mlir::Value positive = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sgt, known, zero);
          checkInput(positive, "tf.reshape cannot infer the size of dimension " + llvm::Twine(unknown) +
                              " from the others, whose product is {0}",
                {known}, l);
          mlir::Value divisor = arith::SelectOp::create(builder, l, positive, known, indexConstant(1, l));
          mlir::Value rest = arith::RemUIOp::create(builder, l, total, divisor);
          checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, rest, zero),
                "tf.reshape of a tensor of {0} elements into a shape that needs a multiple of {1}",
                {total, known}, l);
          sizes[unknown] = arith::DivUIOp::create(builder, l, total, divisor);
        } else {
          t = checkReshape(t, known, l);
        }
      }
    } else {
      // expand_dims / squeeze: the input's sizes, with the 1s added or removed (a
      // squeezed dimension unknown while compiling must be 1 at run time).
      llvm::SmallVector<mlir::Value> in = sizesOf(*this, t, l);

      // expand_dims: the new 1 where the axis says (not where the sizes would allow
      // one: [1, n, 1] expanded at -1 is [1, n, 1, 1], whose n is the input's second size).
      int64_t inserted = -1;
      if (op == TFOp::ExpandDims) {
        const Value *axis = args.get(1, "axis");
        if (!axis || axis->kind != Value::Kind::Int)
          return fail(args.loc, "internal error: tf.expand_dims without a Python int axis");
        inserted = axis->i < 0 ? axis->i + type.getRank() : axis->i;
      }
      unsigned j = 0;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (op == TFOp::ExpandDims) {
          sizes[d] = d == inserted ? indexConstant(1, l) : in[j++];
        } else {
          while (j < in.size() && (*squeezed)[j])
            ++j;
          sizes[d] = in[j++];
        }
      }
    }
  } else {
    if (!inType.hasStaticShape())
      t = checkReshape(t, indexConstant(type.getNumElements(), l), l);
    // A shape with sizes given at run time, of which the tracer inferred every one (as
    // TensorFlow's shape inference takes the one it cannot read for the one to infer: a
    // tensor of 3 elements reshaped to [n, 1] is [3, 1]): each must be that size, or -1
    // once.
    const Value *shape = op == TFOp::Reshape ? args.get(1, "shape") : nullptr;
    if (shape && (shape->isTensorLike() ||
                  (shape->isPySequence() &&
                   llvm::any_of(shape->items(), [](const Value &e) { return e.isTensorLike(); })))) {
      mlir::Value s = shape->isTensorLike() ? operand(*shape, args.loc) : nullptr;
      if (shape->isTensorLike() && !s)
        return false;
      mlir::Value minusOne = indexConstant(-1, l), inferred = indexConstant(0, l);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        mlir::Value v;
        if (s) {
          v = mlir::tensor::ExtractOp::create(builder, l, s, mlir::ValueRange{indexConstant(d, l)});
        } else {
          const Value &e = shape->items()[d];
          if (!e.isTensorLike())
            continue; // a Python int: the tracer checked it
          mlir::Value item = operand(e, args.loc);
          if (!item)
            return false;
          v = mlir::tensor::ExtractOp::create(builder, l, item, mlir::ValueRange{});
        }
        v = arith::IndexCastOp::create(builder, l, builder.getIndexType(), v);
        mlir::Value want = indexConstant(type.getDimSize(d), l);
        mlir::Value isMinusOne = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, v, minusOne);
        mlir::Value ok = arith::OrIOp::create(
            builder, l, arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, v, want),
            isMinusOne);
        checkInput(ok, "tf.reshape: dimension " + llvm::Twine(d) + " of the shape is {0}, where " +
                           "a tensor of " + llvm::Twine(type.getNumElements()) +
                           " elements needs {1} (or -1)",
                   {v, want}, l);
        inferred = arith::AddIOp::create(
            builder, l, inferred,
            arith::SelectOp::create(builder, l, isMinusOne, indexConstant(1, l), indexConstant(0, l)));
      }
      checkInput(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ule, inferred,
                                       indexConstant(1, l)),
                 "tf.reshape: the shape has {0} sizes of -1; one at most can be inferred",
                 {inferred}, l);
    }
  }
  out.ir = handle(reshape(t, type, sizes, l));
  return true;
}

mlir::Value MLIRGen::checkReshape(mlir::Value t, mlir::Value count, mlir::Location l) {
  auto type = llvm::cast<RankedTensorType>(t.getType());
  mlir::Value total = indexConstant(1, l);
  for (int64_t d = 0; d < type.getRank(); ++d)
    total = arith::MulIOp::create(builder, l, total, dimSize(t, d, l));
  mlir::Value guarded[] = {t};
  check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, total, count),
        "tf.reshape of a tensor of {0} elements into a shape of {1} elements", {total, count}, l,
        guarded);
  return guarded[0];
}

bool MLIRGen::emitConcat(TFOp op, const CallArgs &args, Value &out) {
  llvm::StringRef name = tfOpName(op);
  const Value *values = args.get(0, "values");
  RankedTensorType type = tensorType(out, args.loc);
  if (!values || !type)
    return false;
  if (!values->isPySequence())
    return fail(args.loc, name + " of " + values->describe() + " is not supported by agc's code "
                          "generator; pass a list of tensors");
  const Value *axisArg = args.get(1, "axis");
  int64_t axis = axisArg && axisArg->kind == Value::Kind::Int ? axisArg->i : 0;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  if (axis < 0)
    axis += rank;
  llvm::SmallVector<mlir::Value> parts;
  mlir::Value first;
  for (auto [k, v] : llvm::enumerate(values->items())) {
    mlir::Value t = operand(v, args.loc, out.dtype);
    if (!t)
      return false;
    // Every dimension but the axis of a concat (every one, for a stack) is the first
    // tensor's; the tracer compared the static sizes, dynamic ones are checked here.
    auto tt = llvm::cast<RankedTensorType>(t.getType());
    auto ft = first ? llvm::cast<RankedTensorType>(first.getType()) : tt;
    for (int64_t d = 0; first && d < tt.getRank(); ++d) {
      if ((op == TFOp::Concat && d == axis) || (!tt.isDynamicDim(d) && !ft.isDynamicDim(d)))
        continue;
      mlir::Value have = dimSize(t, d, l), want = dimSize(first, d, l);
      mlir::Value same = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, have, want);
      mlir::Value guarded[] = {t};
      check(same, "tf." + name + ": dimension " + llvm::Twine(d) + " is {0} in values[" +
                      llvm::Twine(k) + "] and {1} in values[0]; " +
                      (op == TFOp::Stack ? "the tensors stacked must have one shape"
                                       : "the tensors joined must agree but on the axis"),
            {have, want}, l, guarded);
      t = guarded[0];
    }
    if (!first)
      first = t;
    if (op == TFOp::Stack) {
      // Each part gets a dimension of 1 at `axis`.
      llvm::SmallVector<int64_t> shape(tt.getShape());
      llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, t, l);
      shape.insert(shape.begin() + axis, 1);
      sizes.insert(sizes.begin() + axis, indexConstant(1, l));
      t = reshape(t, RankedTensorType::get(shape, tt.getElementType()), sizes, l);
    }
    parts.push_back(t);
  }
  // A result with no elements is an empty tensor (upstream's verifiers refuse the slices a
  // concat of zero-sized parts becomes), which depends on every part: their checks stay.
  if (parts.size() > 1 && llvm::is_contained(type.getShape(), 0)) {
    llvm::SmallVector<mlir::Value> sizes(type.getRank());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      sizes[d] = dimSize(parts[0], d, l);
      for (mlir::Value part : llvm::drop_begin(parts))
        if (d == axis)
          sizes[d] = arith::AddIOp::create(builder, l, sizes[d], dimSize(part, d, l));
    }
    return produce(out, dependOn(empty(type, sizes, l), parts, l), type, l);
  }
  // A part with no elements along the axis adds nothing, and upstream's verifiers refuse
  // the slice it would become: it is left out, its checks kept (np.array([]), tf.zeros([0])).
  llvm::SmallVector<mlir::Value> kept, dropped;
  for (mlir::Value part : parts) {
    auto pt = llvm::cast<RankedTensorType>(part.getType());
    bool none = op == TFOp::Concat && !pt.isDynamicDim(axis) && pt.getDimSize(axis) == 0;
    (none ? dropped : kept).push_back(part);
  }
  if (kept.empty()) { // (every part empty gives an empty result, above; kept for safety)
    kept.push_back(dropped.back());
    dropped.pop_back();
  }
  mlir::Value r = kept.size() == 1 ? kept[0]
                                   : mlir::tensor::ConcatOp::create(builder, l, axis, kept).getResult();
  if (!dropped.empty())
    r = dependOn(r, dropped, l);
  return produce(out, r, type, l);
}

bool MLIRGen::emitShape(TFOp op, const CallArgs &args, Value &out) {
  const Value *x = args.get(0, "input");
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value t = x && type ? operand(*x, args.loc) : nullptr;
  if (!t)
    return false;
  mlir::Location l = loc(args.loc);
  mlir::Type e = type.getElementType();
  // TensorFlow's tf.size is the constant 0 for a tensor whose static shape holds a 0, as
  // tf.shape and tf.size of a static shape are constants: the tensor is not read, so
  // what computes it may be pruned, a check that would fail there with it.
  if (op == TFOp::Size && llvm::is_contained(llvm::cast<RankedTensorType>(t.getType()).getShape(), 0)) {
    out.ir = handle(denseConstant(Value::integer(0), type, args.loc));
    return true;
  }
  llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, t, l);
  mlir::Value r;
  if (op == TFOp::Shape) {
    llvm::SmallVector<mlir::Value> dims;
    for (mlir::Value s : sizes)
      dims.push_back(arith::IndexCastOp::create(builder, l, e, s));
    r = dims.empty() ? denseConstant(Value::sequence(Value::Kind::List, {}), type, args.loc)
                     : mlir::tensor::FromElementsOp::create(builder, l, type, dims).getResult();
  } else {
    mlir::Value n = indexConstant(op == TFOp::Rank ? int64_t(sizes.size()) : 1, l);
    if (op == TFOp::Size)
      for (mlir::Value s : sizes)
        n = arith::MulIOp::create(builder, l, n, s);
    r = mlir::tensor::FromElementsOp::create(builder, l, type,
                                             mlir::ValueRange{arith::IndexCastOp::create(builder, l, e, n)});
  }
  out.ir = handle(r);
  return true;
}
