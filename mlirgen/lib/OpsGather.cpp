//===- OpsGather.cpp - Ops whose elements are read from computed positions -------===//
//
// tf.gather, tf.gather_nd, tf.tile, tf.pad and tf.reverse: each a linalg.generic over its
// result whose body computes where in the input an element comes from (linalg.index, then
// tensor.extract), with TensorFlow's run-time checks (an index out of range, a negative
// multiple, a reflected padding wider than its dimension) as ag.asserts. tf.cumsum and
// tf.cumprod: a scf.for along the axis, one slice at a time. The composites' scatter
// (segment reductions, tensor_scatter_nd_*): a scf.for over the rows, in order. tf.sort
// and tf.argsort: a stable bottom-up merge sort of each row along the last axis (another
// is transposed there); a NaN is a run-time error, as TensorFlow's order of NaNs is
// unspecified.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace ag;
namespace arith = mlir::arith;

namespace {
/// The position of a result element in its input: what the body of `indexed` computes
/// from the result's indices.
using Where = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// A tensor of `type` (sizes `sizes`) whose element at each position is `element` of the
/// position: a linalg.generic over the result alone.
mlir::Value indexed(MLIRGen &gen, RankedTensorType type, llvm::ArrayRef<mlir::Value> sizes,
                    const Where &element, mlir::Location l) {
  mlir::Value init = gen.empty(type, sizes, l);
  int64_t rank = type.getRank();
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, gen.builder.getContext());
  llvm::SmallVector<mlir::utils::IteratorType> iterators(rank, mlir::utils::IteratorType::parallel);
  auto generic = mlir::linalg::GenericOp::create(
      gen.builder, l, mlir::TypeRange{type}, mlir::ValueRange{}, mlir::ValueRange{init},
      llvm::ArrayRef<mlir::AffineMap>{identity}, iterators,
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange) {
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(mlir::linalg::IndexOp::create(b, bl, d));
        mlir::linalg::YieldOp::create(b, bl, element(b, bl, at));
      });
  return generic.getResult(0);
}

mlir::Value cIndex(mlir::OpBuilder &b, mlir::Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

/// `v` (an integer scalar) as an index.
mlir::Value asIndex(mlir::OpBuilder &b, mlir::Location l, mlir::Value v) {
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastOp::create(b, l, b.getIndexType(), v);
}

bool flag(const CallArgs &args, unsigned i, llvm::StringRef name) {
  const Value *v = args.get(i, name);
  return v && v->kind == Value::Kind::Bool && v->i;
}

int64_t axisArg(const CallArgs &args, unsigned i, llvm::StringRef name, int64_t rank) {
  const Value *v = args.get(i, name);
  int64_t a = v && v->kind == Value::Kind::Int ? v->i : 0;
  return a < 0 ? a + rank : a;
}
} // namespace

bool MLIRGen::emitGather(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value params = type ? operand(*args.get(0, "params"), args.loc) : nullptr;
  mlir::Value indices = params ? operand(*args.get(1, "indices"), args.loc, DType::Int32) : nullptr;
  if (!indices)
    return false;
  mlir::Location l = loc(args.loc);
  auto pt = llvm::cast<RankedTensorType>(params.getType());
  auto it = llvm::cast<RankedTensorType>(indices.getType());
  int64_t ri = it.getRank();
  // batch_dims = b (checked by the typer): out[p0.., i_b.., rest] =
  // params[p0.., indices[p0..p_{b-1}, i_b..], rest]; axis defaults to b.
  const Value *batch = args.get(4, "batch_dims");
  int64_t batchDims = batch && batch->kind == Value::Kind::Int ? batch->i : 0;
  if (batchDims < 0)
    batchDims += ri;
  const Value *axisValue = args.get(3, "axis");
  int64_t axis = axisValue && axisValue->kind == Value::Kind::Int
                     ? axisArg(args, 3, "axis", pt.getRank())
                     : batchDims;
  // The batch's sizes, where either is known only at run time, are TensorFlow's check.
  for (int64_t d = 0; d < batchDims; ++d) {
    if (!pt.isDynamicDim(d) && !it.isDynamicDim(d))
      continue;
    mlir::Value p = dimSize(params, d, l), i = dimSize(indices, d, l);
    mlir::Value guarded[] = {params, indices};
    check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, p, i),
          "tf.gather: params.shape[" + llvm::Twine(d) + "]: {0} should be equal to indices.shape[" +
              llvm::Twine(d) + "]: {1}",
          {p, i}, l, guarded);
    params = guarded[0];
    indices = guarded[1];
  }
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < axis; ++d)
    sizes.push_back(dimSize(params, d, l));
  for (int64_t d = batchDims; d < ri; ++d)
    sizes.push_back(dimSize(indices, d, l));
  for (int64_t d = axis + 1; d < pt.getRank(); ++d)
    sizes.push_back(dimSize(params, d, l));
  mlir::Value n = dimSize(params, axis, l);
  std::string message = "tf.gather: index {0} is not in [0, {1})";
  int64_t gathered = ri - batchDims; // the result's dimensions from indices
  mlir::Value r = indexed(
      *this, type, sizes,
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange at) {
        llvm::SmallVector<mlir::Value> where(at.take_front(batchDims));
        for (mlir::Value v : at.slice(axis, gathered))
          where.push_back(v);
        mlir::Value k = mlir::tensor::ExtractOp::create(b, bl, indices, where);
        mlir::Value i = asIndex(b, bl, k);
        // One unsigned comparison: a negative index is out of range too, as on TF's CPU.
        mlir::Value guarded[] = {i};
        check(b, arith::CmpIOp::create(b, bl, arith::CmpIPredicate::ult, i, n), message,
              {i, n}, bl, guarded);
        llvm::SmallVector<mlir::Value> from(at.take_front(axis));
        from.push_back(guarded[0]);
        for (mlir::Value v : at.drop_front(axis + gathered))
          from.push_back(v);
        return mlir::tensor::ExtractOp::create(b, bl, params, from).getResult();
      },
      l);
  return produce(out, r, type, l);
}

bool MLIRGen::emitTile(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value x = type ? operand(*args.get(0, "input"), args.loc) : nullptr;
  const Value *multiples = args.get(1, "multiples");
  if (!x || !multiples)
    return false;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  // Each multiple as an index: a Python int, an int scalar tensor, or an element of a 1-D
  // int tensor.
  llvm::SmallVector<mlir::Value> m;
  mlir::Value whole = multiples->isPySequence() ? nullptr : operand(*multiples, args.loc);
  if (!multiples->isPySequence() && !whole)
    return false;
  for (int64_t d = 0; d < rank; ++d) {
    if (whole) {
      mlir::Value e = mlir::tensor::ExtractOp::create(builder, l, whole,
                                                      mlir::ValueRange{indexConstant(d, l)});
      m.push_back(asIndex(builder, l, e));
      continue;
    }
    const Value &v = multiples->items()[d];
    if (v.kind == Value::Kind::Int) {
      m.push_back(indexConstant(v.i, l));
      continue;
    }
    mlir::Value t = operand(v, args.loc);
    if (!t)
      return false;
    m.push_back(asIndex(builder, l, mlir::tensor::ExtractOp::create(builder, l, t, mlir::ValueRange{})));
  }
  llvm::SmallVector<mlir::Value> in, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    in.push_back(dimSize(x, d, l));
    mlir::Value guarded[] = {m[d]};
    if (!llvm::isa_and_nonnull<arith::ConstantOp>(m[d].getDefiningOp()))
      check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sge, m[d], indexConstant(0, l)),
            "Expected multiples[" + llvm::Twine(d) + "] >= 0, but got {0}", {m[d]}, l, guarded);
    sizes.push_back(arith::MulIOp::create(builder, l, in[d], guarded[0]));
  }
  mlir::Value r = indexed(
      *this, type, sizes,
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange at) {
        llvm::SmallVector<mlir::Value> from;
        for (int64_t d = 0; d < rank; ++d)
          from.push_back(arith::RemUIOp::create(b, bl, at[d], in[d]));
        return mlir::tensor::ExtractOp::create(b, bl, x, from).getResult();
      },
      l);
  return produce(out, r, type, l);
}

bool MLIRGen::emitPad(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value x = type ? operand(*args.get(0, "tensor"), args.loc) : nullptr;
  if (!x)
    return false;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  const Value *modeV = args.get(2, "mode");
  std::string mode = modeV && modeV->kind == Value::Kind::Str ? llvm::StringRef(modeV->text).upper()
                                                              : "CONSTANT";
  const Value *cv = args.get(3, "constant_values");
  mlir::Value fill;
  if (cv && cv->kind != Value::Kind::None) {
    mlir::Value c = operand(*cv, args.loc, out.dtype);
    if (!c)
      return false;
    fill = mlir::tensor::ExtractOp::create(builder, l, c, mlir::ValueRange{});
  } else {
    fill = scalarConstant(0, type.getElementType(), l);
  }
  const Value &paddings = *args.get(1, "paddings");
  llvm::SmallVector<int64_t> lo, hi;
  for (const Value &pair : paddings.items()) {
    lo.push_back(pair.items()[0].i);
    hi.push_back(pair.items()[1].i);
  }
  llvm::SmallVector<mlir::Value> in, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    mlir::Value n = dimSize(x, d, l);
    // REFLECT needs before, after < n; SYMMETRIC <= n.
    if (mode != "CONSTANT" && (lo[d] > 0 || hi[d] > 0)) {
      int64_t most = std::max(lo[d], hi[d]);
      auto pred = mode == "REFLECT" ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::sge;
      mlir::Value guarded[] = {n};
      check(arith::CmpIOp::create(builder, l, pred, n, indexConstant(most, l)),
            "tf.pad: paddings must be " + llvm::Twine(mode == "REFLECT" ? "less than" : "no greater than") +
                " the dimension size in " + mode + " mode: " + llvm::Twine(lo[d]) + ", " +
                llvm::Twine(hi[d]) + " against {0} in dimension " + llvm::Twine(d),
            {n}, l, guarded);
      n = guarded[0];
    }
    in.push_back(n);
    sizes.push_back(arith::AddIOp::create(builder, l, n, indexConstant(lo[d] + hi[d], l)));
  }
  mlir::Type e = type.getElementType();
  mlir::Value r = indexed(
      *this, type, sizes,
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange at) -> mlir::Value {
        llvm::SmallVector<mlir::Value> from;
        mlir::Value inside;
        for (int64_t d = 0; d < rank; ++d) {
          mlir::Value s = arith::SubIOp::create(b, bl, at[d], cIndex(b, bl, lo[d]));
          if (mode == "CONSTANT") {
            mlir::Value ok = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::ult, s, in[d]);
            inside = inside ? arith::AndIOp::create(b, bl, inside, ok).getResult() : ok;
          } else {
            // Reflected about the edge (REFLECT) or the half-element past it (SYMMETRIC).
            int64_t shift = mode == "SYMMETRIC" ? 1 : 0;
            mlir::Value neg = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::slt, s, cIndex(b, bl, 0));
            mlir::Value mirrored = arith::SubIOp::create(b, bl, cIndex(b, bl, -shift), s);
            s = arith::SelectOp::create(b, bl, neg, mirrored, s);
            mlir::Value past = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::sge, s, in[d]);
            // 2(n-1) - s, or 2n-1 - s.
            mlir::Value twice = arith::AddIOp::create(b, bl, in[d], in[d]);
            mlir::Value back = arith::SubIOp::create(
                b, bl, arith::SubIOp::create(b, bl, twice, cIndex(b, bl, 2 - shift)), s);
            s = arith::SelectOp::create(b, bl, past, back, s);
          }
          from.push_back(s);
        }
        if (!inside)
          return mlir::tensor::ExtractOp::create(b, bl, x, from);
        // Read only inside: a padded dimension may be empty.
        auto branch = mlir::scf::IfOp::create(b, bl, mlir::TypeRange{e}, inside, true);
        {
          mlir::OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(branch.thenBlock());
          mlir::Value v = mlir::tensor::ExtractOp::create(b, bl, x, from);
          mlir::scf::YieldOp::create(b, bl, v);
          b.setInsertionPointToStart(branch.elseBlock());
          mlir::scf::YieldOp::create(b, bl, fill);
        }
        return branch.getResult(0);
      },
      l);
  return produce(out, r, type, l);
}

bool MLIRGen::emitReverse(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value x = type ? operand(*args.get(0, "tensor"), args.loc) : nullptr;
  if (!x)
    return false;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  const Value &axis = *args.get(1, "axis");
  std::vector<Value> axes = axis.isPySequence() ? axis.items() : std::vector<Value>{axis};
  llvm::SmallVector<bool> reversed(rank, false);
  for (const Value &a : axes)
    reversed[a.i < 0 ? a.i + rank : a.i] = true;
  return produce(out, reverseDims(x, reversed, l), type, l);
}

mlir::Value MLIRGen::reverseDims(mlir::Value x, llvm::ArrayRef<bool> reversed, mlir::Location l) {
  auto type = llvm::cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(dimSize(x, d, l));
  return indexed(
      *this, type, sizes,
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange at) {
        llvm::SmallVector<mlir::Value> from;
        for (int64_t d = 0; d < rank; ++d) {
          mlir::Value i = at[d];
          if (reversed[d])
            i = arith::SubIOp::create(b, bl, arith::SubIOp::create(b, bl, sizes[d], cIndex(b, bl, 1)), i);
          from.push_back(i);
        }
        return mlir::tensor::ExtractOp::create(b, bl, x, from).getResult();
      },
      l);
}

bool MLIRGen::emitCumulative(TFOp op, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value x = type ? operand(*args.get(0, "x"), args.loc) : nullptr;
  if (!x)
    return false;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  int64_t axis = axisArg(args, 1, "axis", rank);
  bool exclusive = flag(args, 2, "exclusive"), reverse = flag(args, 3, "reverse");
  DType dtype = out.dtype;
  TFOp combine = op == TFOp::Cumsum ? TFOp::Add : TFOp::Multiply;
  llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, x, l);
  // The running value: one slice across the axis, starting at 0 (or 1).
  llvm::SmallVector<int64_t> rowShape;
  llvm::SmallVector<mlir::Value> rowSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) {
      rowShape.push_back(type.getDimSize(d));
      rowSizes.push_back(sizes[d]);
    }
  auto rowType = RankedTensorType::get(rowShape, type.getElementType());
  mlir::Value start = filled(rowType, rowSizes,
                             scalarConstant(combine == TFOp::Add ? 0 : 1, type.getElementType(), l), l);
  mlir::Value result = empty(type, sizes, l);
  mlir::Value n = sizes[axis];
  auto loop = mlir::scf::ForOp::create(
      builder, l, indexConstant(0, l), n, indexConstant(1, l), mlir::ValueRange{result, start},
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::Value k, mlir::ValueRange carried) {
        mlir::OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
        mlir::Value at = k;
        if (reverse)
          at = arith::SubIOp::create(builder, bl, arith::SubIOp::create(builder, bl, n, indexConstant(1, bl)), k);
        llvm::SmallVector<mlir::OpFoldResult> offsets, extents, strides;
        for (int64_t d = 0; d < rank; ++d) {
          offsets.push_back(d == axis ? mlir::OpFoldResult(at) : builder.getIndexAttr(0));
          extents.push_back(d == axis || !type.isDynamicDim(d)
                                ? mlir::OpFoldResult(builder.getIndexAttr(
                                      d == axis ? 1 : type.getDimSize(d)))
                                : mlir::OpFoldResult(sizes[d]));
          strides.push_back(builder.getIndexAttr(1));
        }
        mlir::Value row = mlir::tensor::ExtractSliceOp::create(builder, bl, rowType, x, offsets,
                                                               extents, strides);
        mlir::Value next = elementwise(
            rowType, {carried[1], row},
            [&](mlir::OpBuilder &eb, mlir::Location el, mlir::ValueRange xs) {
              return scalarOp(combine, eb, el, xs, dtype);
            },
            bl);
        mlir::Value written = exclusive ? carried[1] : next;
        mlir::Value updated = mlir::tensor::InsertSliceOp::create(builder, bl, written, carried[0],
                                                                  offsets, extents, strides);
        mlir::scf::YieldOp::create(builder, bl, mlir::ValueRange{updated, next});
      });
  return produce(out, loop.getResult(0), type, l);
}

/// The composites' sequential scatter (TFOps.def's ScatterRows, no tf function):
/// `tensor` [n0, ..., n(D-1), rest...] with each slice `rows[k]` [rest...] combined into
/// the slice at `positions[k]` (a vector: D = 1; else [K, D]), for k = 0, 1, ... in
/// order, as TensorFlow's CPU kernels of the segment reductions and tensor_scatter_nd_*
/// apply them (so floats round alike); a position outside the tensor is skipped. `how`:
/// "update" (the last wins), "add", "subtract", "multiply"; "max" and "min" as
/// std::max(there, new) and std::min(there, new) (tensor_scatter_nd_max: a NaN there
/// stays, a new NaN is ignored), "segment_max" and "segment_min" as std::max(new, there)
/// and std::min(new, there) (the segment kernels: a new NaN is kept, and a number after
/// it replaces it).
bool MLIRGen::emitScatterRows(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  if (!type || args.positional.size() != 4)
    return false;
  mlir::Value t = operand(args.positional[0], args.loc, out.dtype);
  mlir::Value positions = t ? operand(args.positional[1], args.loc) : nullptr;
  mlir::Value rows = positions ? operand(args.positional[2], args.loc, out.dtype) : nullptr;
  if (!rows)
    return false;
  const std::string &how = args.positional[3].text;
  DType dtype = out.dtype;
  mlir::Location l = loc(args.loc);
  int64_t rank = type.getRank();
  auto pt = llvm::cast<RankedTensorType>(positions.getType());
  int64_t depth = pt.getRank() == 1 ? 1 : pt.getDimSize(1);
  if (t.getType() != type)
    t = mlir::tensor::CastOp::create(builder, l, type, t);
  llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, t, l);
  auto sliceType = RankedTensorType::get(type.getShape().drop_front(depth), type.getElementType());
  auto combine = [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange xs) -> mlir::Value {
    mlir::Value acc = xs[0], x = xs[1];
    if (how == "update")
      return x;
    if (how == "add" || how == "subtract" || how == "multiply")
      return scalarOp(how == "add" ? TFOp::Add : how == "subtract" ? TFOp::Subtract : TFOp::Multiply,
                      b, bl, xs, dtype);
    auto less = [&](mlir::Value p, mlir::Value q) { // tf.less's: ordered, or unsigned
      mlir::Value pq[] = {p, q};
      return scalarOp(TFOp::Less, b, bl, pq, dtype);
    };
    if (how == "max") // std::max(acc, x): acc < x ? x : acc
      return arith::SelectOp::create(b, bl, less(acc, x), x, acc);
    if (how == "min") // std::min(acc, x): x < acc ? x : acc
      return arith::SelectOp::create(b, bl, less(x, acc), x, acc);
    if (how == "segment_max") // std::max(x, acc): x < acc ? acc : x
      return arith::SelectOp::create(b, bl, less(x, acc), acc, x);
    // "segment_min", std::min(x, acc): acc < x ? acc : x
    return arith::SelectOp::create(b, bl, less(acc, x), acc, x);
  };
  // The callers check that there are as many rows as positions (TensorFlow's errors);
  // should a check not stop the call first, no read goes past either.
  mlir::Value count = arith::MinUIOp::create(builder, l, dimSize(positions, 0, l), dimSize(rows, 0, l));
  auto loop = mlir::scf::ForOp::create(
      builder, l, indexConstant(0, l), count, indexConstant(1, l), mlir::ValueRange{t},
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::Value k, mlir::ValueRange carried) {
        mlir::OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
        mlir::Value acc = carried[0];
        llvm::SmallVector<mlir::Value> at;
        mlir::Value inRange;
        for (int64_t d = 0; d < depth; ++d) {
          llvm::SmallVector<mlir::Value> where{k};
          if (pt.getRank() == 2)
            where.push_back(cIndex(builder, bl, d));
          mlir::Value i = asIndex(builder, bl, mlir::tensor::ExtractOp::create(builder, bl, positions, where));
          mlir::Value ok = arith::AndIOp::create(
              builder, bl, arith::CmpIOp::create(builder, bl, arith::CmpIPredicate::sge, i, cIndex(builder, bl, 0)),
              arith::CmpIOp::create(builder, bl, arith::CmpIPredicate::slt, i, sizes[d]));
          inRange = d == 0 ? ok : arith::AndIOp::create(builder, bl, inRange, ok).getResult();
          at.push_back(i);
        }
        auto within = mlir::scf::IfOp::create(builder, bl, mlir::TypeRange{type}, inRange, /*withElseRegion=*/true);
        builder.setInsertionPointToStart(within.thenBlock());
        mlir::Value updated;
        if (depth == rank) {
          mlir::Value there = mlir::tensor::ExtractOp::create(builder, bl, acc, at);
          mlir::Value x = mlir::tensor::ExtractOp::create(builder, bl, rows, k);
          mlir::Value both[] = {there, x};
          updated = mlir::tensor::InsertOp::create(builder, bl, combine(builder, bl, both), acc, at);
        } else {
          llvm::SmallVector<mlir::OpFoldResult> accAt, accExtents, rowAt{k}, rowExtents{builder.getIndexAttr(1)};
          for (mlir::Value i : at) {
            accAt.push_back(i);
            accExtents.push_back(builder.getIndexAttr(1));
          }
          for (int64_t d = depth; d < rank; ++d) {
            mlir::OpFoldResult extent = type.isDynamicDim(d) ? mlir::OpFoldResult(sizes[d])
                                                             : mlir::OpFoldResult(builder.getIndexAttr(type.getDimSize(d)));
            accAt.push_back(builder.getIndexAttr(0));
            accExtents.push_back(extent);
            rowAt.push_back(builder.getIndexAttr(0));
            rowExtents.push_back(extent);
          }
          llvm::SmallVector<mlir::OpFoldResult> accStrides(rank, builder.getIndexAttr(1)),
              rowStrides(rowAt.size(), builder.getIndexAttr(1));
          mlir::Value there = mlir::tensor::ExtractSliceOp::create(builder, bl, sliceType, acc, accAt, accExtents, accStrides);
          mlir::Value x = mlir::tensor::ExtractSliceOp::create(builder, bl, sliceType, rows, rowAt, rowExtents, rowStrides);
          // Combined into the slice itself (its destination), so that it is updated in
          // place rather than copied from a new buffer each row.
          int64_t sliceRank = sliceType.getRank();
          auto identity = mlir::AffineMap::getMultiDimIdentityMap(sliceRank, builder.getContext());
          llvm::SmallVector<mlir::utils::IteratorType> parallel(sliceRank, mlir::utils::IteratorType::parallel);
          auto combined = mlir::linalg::GenericOp::create(
              builder, bl, mlir::TypeRange{sliceType}, mlir::ValueRange{x}, mlir::ValueRange{there},
              llvm::ArrayRef<mlir::AffineMap>{identity, identity}, parallel,
              [&](mlir::OpBuilder &gb, mlir::Location gl, mlir::ValueRange a) {
                mlir::Value both[] = {a[1], a[0]}; // (there, new)
                mlir::linalg::YieldOp::create(gb, gl, combine(gb, gl, both));
              });
          updated = mlir::tensor::InsertSliceOp::create(builder, bl, combined.getResult(0), acc, accAt,
                                                        accExtents, accStrides);
        }
        mlir::scf::YieldOp::create(builder, bl, updated);
        builder.setInsertionPointToStart(within.elseBlock());
        mlir::scf::YieldOp::create(builder, bl, acc);
        builder.setInsertionPointAfter(within);
        mlir::scf::YieldOp::create(builder, bl, within.getResult(0));
      });
  return produce(out, loop.getResult(0), type, l);
}

/// tf.searchsorted's search (TFOps.def's BinarySearch, no tf function): for each value
/// of `values` [R, N], the position in its row of `sorted` [R', M] that TensorFlow's
/// kernel finds, by the same probes as std::lower_bound ("left": the first element not
/// below the value) or std::upper_bound ("right": the first above it), so that a row that
/// is not sorted, or holds a NaN, gives TensorFlow's answer too. A row `sorted` lacks
/// (R' < R, TensorFlow's error, checked by the caller) reads nothing and gives 0.
bool MLIRGen::emitBinarySearch(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  if (!type || args.positional.size() != 3)
    return false;
  mlir::Value sorted = operand(args.positional[0], args.loc);
  mlir::Value values = sorted ? operand(args.positional[1], args.loc) : nullptr;
  if (!values)
    return false;
  bool right = args.positional[2].text == "right";
  DType dtype = args.positional[0].dtype;
  mlir::Location l = loc(args.loc);
  auto less = [&](mlir::OpBuilder &b, mlir::Location bl, mlir::Value p, mlir::Value q) {
    mlir::Value pq[] = {p, q}; // tf.less's: ordered, or unsigned
    return scalarOp(TFOp::Less, b, bl, pq, dtype);
  };
  mlir::Value sortedRows = dimSize(sorted, 0, l), m = dimSize(sorted, 1, l);
  llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, values, l);
  mlir::Value result = empty(type, sizes, l);
  mlir::Type indexType = builder.getIndexType();
  auto eachRow = mlir::scf::ForOp::create(
      builder, l, indexConstant(0, l), sizes[0], indexConstant(1, l), mlir::ValueRange{result},
      [&](mlir::OpBuilder &rb, mlir::Location rl, mlir::Value r, mlir::ValueRange rowAcc) {
        // A row `sorted` lacks is searched as an empty one.
        mlir::Value rowLength = arith::SelectOp::create(
            rb, rl, arith::CmpIOp::create(rb, rl, arith::CmpIPredicate::ult, r, sortedRows), m, cIndex(rb, rl, 0));
        auto eachValue = mlir::scf::ForOp::create(
            rb, rl, cIndex(rb, rl, 0), sizes[1], cIndex(rb, rl, 1), rowAcc,
            [&](mlir::OpBuilder &b, mlir::Location bl, mlir::Value i, mlir::ValueRange acc) {
              mlir::Value v = mlir::tensor::ExtractOp::create(b, bl, values, mlir::ValueRange{r, i});
              mlir::Value start[] = {cIndex(b, bl, 0), rowLength};
              // while len > 0: half = len / 2, middle = first + half; on to the left half,
              // or past the middle.
              auto search = mlir::scf::WhileOp::create(
                  b, bl, mlir::TypeRange{indexType, indexType}, start,
                  [&](mlir::OpBuilder &wb, mlir::Location wl, mlir::ValueRange s) {
                    mlir::Value more = arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::ugt, s[1], cIndex(wb, wl, 0));
                    mlir::scf::ConditionOp::create(wb, wl, more, s);
                  },
                  [&](mlir::OpBuilder &wb, mlir::Location wl, mlir::ValueRange s) {
                    mlir::Value first = s[0], len = s[1];
                    mlir::Value half = arith::ShRUIOp::create(wb, wl, len, cIndex(wb, wl, 1));
                    mlir::Value middle = arith::AddIOp::create(wb, wl, first, half);
                    mlir::Value x = mlir::tensor::ExtractOp::create(wb, wl, sorted, mlir::ValueRange{r, middle});
                    // upper_bound: value < *middle; lower_bound: !(*middle < value).
                    mlir::Value leftHalf = right ? less(wb, wl, v, x)
                                                 : arith::XOrIOp::create(wb, wl, less(wb, wl, x, v),
                                                                         arith::ConstantOp::create(wb, wl, wb.getBoolAttr(true)));
                    mlir::Value past = arith::AddIOp::create(wb, wl, middle, cIndex(wb, wl, 1));
                    mlir::Value rest = arith::SubIOp::create(wb, wl, arith::SubIOp::create(wb, wl, len, half), cIndex(wb, wl, 1));
                    mlir::Value next[] = {arith::SelectOp::create(wb, wl, leftHalf, first, past),
                                          arith::SelectOp::create(wb, wl, leftHalf, half, rest)};
                    mlir::scf::YieldOp::create(wb, wl, next);
                  });
              mlir::Value at = arith::IndexCastOp::create(b, bl, type.getElementType(), search.getResult(0));
              mlir::Value written = mlir::tensor::InsertOp::create(b, bl, at, acc[0], mlir::ValueRange{r, i});
              mlir::scf::YieldOp::create(b, bl, written);
            });
        mlir::scf::YieldOp::create(rb, rl, eachValue.getResults());
      });
  return produce(out, eachRow.getResult(0), type, l);
}

bool MLIRGen::emitGatherNd(TFOp, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value params = type ? operand(*args.get(0, "params"), args.loc) : nullptr;
  mlir::Value indices = params ? operand(*args.get(1, "indices"), args.loc, DType::Int32) : nullptr;
  if (!indices)
    return false;
  mlir::Location l = loc(args.loc);
  auto pt = llvm::cast<RankedTensorType>(params.getType());
  auto it = llvm::cast<RankedTensorType>(indices.getType());
  int64_t outer = it.getRank() - 1, m = it.getDimSize(outer);
  llvm::SmallVector<mlir::Value> sizes, bounds;
  for (int64_t d = 0; d < outer; ++d)
    sizes.push_back(dimSize(indices, d, l));
  for (int64_t d = m; d < pt.getRank(); ++d)
    sizes.push_back(dimSize(params, d, l));
  for (int64_t j = 0; j < m; ++j)
    bounds.push_back(dimSize(params, j, l));
  mlir::Value r = indexed(
      *this, type, sizes,
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange at) {
        llvm::SmallVector<mlir::Value> from;
        for (int64_t j = 0; j < m; ++j) {
          llvm::SmallVector<mlir::Value> where(at.take_front(outer));
          where.push_back(cIndex(b, bl, j));
          mlir::Value i = asIndex(b, bl, mlir::tensor::ExtractOp::create(b, bl, indices, where));
          mlir::Value guarded[] = {i};
          check(b, arith::CmpIOp::create(b, bl, arith::CmpIPredicate::ult, i, bounds[j]),
                "tf.gather_nd: index {0} is not in [0, {1}) in dimension " + llvm::Twine(j),
                {i, bounds[j]}, bl, guarded);
          from.push_back(guarded[0]);
        }
        for (mlir::Value v : at.drop_front(outer))
          from.push_back(v);
        return mlir::tensor::ExtractOp::create(b, bl, params, from).getResult();
      },
      l);
  return produce(out, r, type, l);
}

/// tf.sort and tf.argsort along the last axis: a bottom-up merge sort of each row (runs of
/// 1, 2, 4, ... elements merged into a new buffer per pass), n log n comparisons. Merges
/// are stable: of two equal elements (-0.0 and 0.0 are equal) the earlier comes first, as
/// TensorFlow's top_k orders ties. The rows lie one after another in a flat tensor.
bool MLIRGen::emitSort(TFOp op, const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  const Value *values = args.get(0, "values");
  mlir::Value x = type ? operand(*values, args.loc) : nullptr;
  if (!x)
    return false;
  mlir::Location l = loc(args.loc);
  // Another axis is swapped with the last one, sorted there, and swapped back.
  int64_t axis = axisArg(args, 1, "axis", type.getRank());
  if (const Value *a = args.get(1, "axis"); !a || a->kind != Value::Kind::Int)
    axis = type.getRank() - 1;
  llvm::SmallVector<int64_t> swap;
  for (int64_t k = 0; k < type.getRank(); ++k)
    swap.push_back(k);
  std::swap(swap[axis], swap.back());
  RankedTensorType resultType = type;
  bool swapped = axis != type.getRank() - 1;
  if (swapped) {
    x = transposed(*this, x, swap, l);
    llvm::SmallVector<int64_t> shape(type.getShape());
    std::swap(shape[axis], shape.back());
    type = RankedTensorType::get(shape, type.getElementType());
  }
  auto xt = llvm::cast<RankedTensorType>(x.getType());
  const Value *d = args.get(2, "direction");
  bool descending = d && d->kind == Value::Kind::Str && d->text == "DESCENDING";
  bool fp = analysis::isFloat(values->dtype);
  bool indices = op == TFOp::Argsort;
  int64_t last = xt.getRank() - 1;
  llvm::SmallVector<mlir::Value> sizes = sizesOf(*this, x, l);
  mlir::Value n = sizes[last], rows = indexConstant(1, l);
  for (int64_t k = 0; k < last; ++k)
    rows = arith::MulIOp::create(builder, l, rows, sizes[k]);
  mlir::Value total = arith::MulIOp::create(builder, l, rows, n);
  int64_t count = xt.hasStaticShape() ? xt.getNumElements() : mlir::ShapedType::kDynamic;
  auto flatType = RankedTensorType::get({count}, xt.getElementType());
  auto flatIndexType = RankedTensorType::get({count}, builder.getIndexType());
  if (fp) {
    // TensorFlow's order of NaNs is unspecified (its top_k leaves them anywhere): agc
    // refuses to sort one rather than guess.
    x = elementwise(
        xt, {x},
        [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange e) {
          mlir::Value guarded[] = {e[0]};
          check(b, arith::CmpFOp::create(b, bl, arith::CmpFPredicate::ORD, e[0], e[0]),
                "tf." + tfOpName(op) + ": agc does not sort NaN (TensorFlow's order of NaNs "
                "is unspecified)",
                {}, bl, guarded);
          return guarded[0];
        },
        l);
  }
  llvm::SmallVector<mlir::Value> sorted{reshape(x, flatType, {total}, l)};
  if (indices) {
    auto indexType = RankedTensorType::get(xt.getShape(), builder.getIndexType());
    mlir::Value positions = indexed(
        *this, indexType, sizes,
        [&](mlir::OpBuilder &, mlir::Location, mlir::ValueRange at) { return at[last]; }, l);
    sorted.push_back(reshape(positions, flatIndexType, {total}, l));
  }
  // Whether `b` goes strictly before `a` (then a merge takes it first).
  auto before = [&](mlir::OpBuilder &bb, mlir::Location bl, mlir::Value b, mlir::Value a) {
    mlir::Value ba[] = {b, a}; // tf.less's (tf.greater's): ordered, or unsigned
    return scalarOp(descending ? TFOp::Greater : TFOp::Less, bb, bl, ba, values->dtype);
  };
  llvm::SmallVector<mlir::Type> carriedTypes{builder.getIndexType(), flatType};
  llvm::SmallVector<mlir::Value> carried{indexConstant(1, l), sorted[0]};
  if (indices) {
    carriedTypes.push_back(flatIndexType);
    carried.push_back(sorted[1]);
  }
  // while width < n: merge each row's runs of `width` into runs of 2 * width.
  auto passes = mlir::scf::WhileOp::create(
      builder, l, carriedTypes, carried,
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange a) {
        mlir::Value more = arith::CmpIOp::create(b, bl, arith::CmpIPredicate::ult, a[0], n);
        mlir::scf::ConditionOp::create(b, bl, more, a);
      },
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange a) {
        mlir::Value width = a[0];
        mlir::ValueRange from = a.drop_front();
        mlir::Value dynamic[] = {total};
        llvm::ArrayRef<mlir::Value> dynamicSizes =
            count == mlir::ShapedType::kDynamic ? llvm::ArrayRef<mlir::Value>(dynamic)
                                                : llvm::ArrayRef<mlir::Value>{};
        llvm::SmallVector<mlir::Value> into;
        for (mlir::Value f : from)
          into.push_back(mlir::tensor::EmptyOp::create(
              b, bl, llvm::cast<RankedTensorType>(f.getType()), dynamicSizes));
        mlir::Value one = cIndex(b, bl, 1);
        mlir::Value span = arith::MulIOp::create(b, bl, width, cIndex(b, bl, 2));
        auto eachRow = mlir::scf::ForOp::create(
            b, bl, cIndex(b, bl, 0), rows, one, into,
            [&](mlir::OpBuilder &rb, mlir::Location rl, mlir::Value r, mlir::ValueRange rowInto) {
              mlir::Value base = arith::MulIOp::create(rb, rl, r, n);
              auto eachRun = mlir::scf::ForOp::create(
                  rb, rl, cIndex(rb, rl, 0), n, span, rowInto,
                  [&](mlir::OpBuilder &mb, mlir::Location ml, mlir::Value lo, mlir::ValueRange runInto) {
                    mlir::Value mid = arith::MinUIOp::create(mb, ml, arith::AddIOp::create(mb, ml, lo, width), n);
                    mlir::Value hi = arith::MinUIOp::create(mb, ml, arith::AddIOp::create(mb, ml, lo, span), n);
                    mlir::Value lastLeft = arith::SubIOp::create(mb, ml, mid, cIndex(mb, ml, 1));
                    mlir::Value lastRight = arith::SubIOp::create(mb, ml, hi, cIndex(mb, ml, 1));
                    llvm::SmallVector<mlir::Value> state{lo, mid};
                    state.append(runInto.begin(), runInto.end());
                    // out[k] = the left run's next element unless the right run's goes
                    // strictly before it (or the left run is spent). The positions read
                    // are clamped into the runs: a spent run's value is read, not used.
                    auto merge = mlir::scf::ForOp::create(
                        mb, ml, lo, hi, cIndex(mb, ml, 1), state,
                        [&](mlir::OpBuilder &kb, mlir::Location kl, mlir::Value k, mlir::ValueRange s) {
                          mlir::Value i = s[0], j = s[1];
                          mlir::Value li = arith::AddIOp::create(kb, kl, base, arith::MinUIOp::create(kb, kl, i, lastLeft));
                          mlir::Value rj = arith::AddIOp::create(kb, kl, base, arith::MinUIOp::create(kb, kl, j, lastRight));
                          mlir::Value left = mlir::tensor::ExtractOp::create(kb, kl, from[0], li);
                          mlir::Value right = mlir::tensor::ExtractOp::create(kb, kl, from[0], rj);
                          mlir::Value leftLeft = arith::CmpIOp::create(kb, kl, arith::CmpIPredicate::ult, i, mid);
                          mlir::Value rightSpent = arith::CmpIOp::create(kb, kl, arith::CmpIPredicate::uge, j, hi);
                          mlir::Value notBefore = arith::XOrIOp::create(
                              kb, kl, before(kb, kl, right, left),
                              arith::ConstantOp::create(kb, kl, kb.getBoolAttr(true)));
                          mlir::Value takeLeft = arith::AndIOp::create(
                              kb, kl, leftLeft, arith::OrIOp::create(kb, kl, rightSpent, notBefore));
                          mlir::Value at = arith::AddIOp::create(kb, kl, base, k);
                          llvm::SmallVector<mlir::Value> next{
                              arith::SelectOp::create(kb, kl, takeLeft, arith::AddIOp::create(kb, kl, i, cIndex(kb, kl, 1)), i),
                              arith::SelectOp::create(kb, kl, takeLeft, j, arith::AddIOp::create(kb, kl, j, cIndex(kb, kl, 1)))};
                          for (size_t t = 0; t < from.size(); ++t) {
                            mlir::Value lv = t == 0 ? left : mlir::tensor::ExtractOp::create(kb, kl, from[t], li).getResult();
                            mlir::Value rv = t == 0 ? right : mlir::tensor::ExtractOp::create(kb, kl, from[t], rj).getResult();
                            mlir::Value v = arith::SelectOp::create(kb, kl, takeLeft, lv, rv);
                            next.push_back(mlir::tensor::InsertOp::create(kb, kl, v, s[2 + t], at));
                          }
                          mlir::scf::YieldOp::create(kb, kl, next);
                        });
                    mlir::scf::YieldOp::create(mb, ml, merge.getResults().drop_front(2));
                  });
              mlir::scf::YieldOp::create(rb, rl, eachRun.getResults());
            });
        llvm::SmallVector<mlir::Value> next{span};
        next.append(eachRow.getResults().begin(), eachRow.getResults().end());
        mlir::scf::YieldOp::create(b, bl, next);
      });
  mlir::Value r = passes.getResult(indices ? 2 : 1);
  if (indices) {
    mlir::Type e = type.getElementType();
    r = elementwise(
        RankedTensorType::get({count}, e), {r},
        [&](mlir::OpBuilder &b, mlir::Location bl, mlir::ValueRange v) {
          return arith::IndexCastOp::create(b, bl, e, v[0]).getResult();
        },
        l);
  }
  r = reshape(r, type, sizes, l);
  if (swapped)
    r = transposed(*this, r, swap, l);
  return produce(out, r, resultType, l);
}

/// tf.where(condition): the coordinates of its true elements, in row-major order, as an
/// int64 [count, rank] tensor: one pass counts them, a second writes each one's
/// coordinates.
bool MLIRGen::whereTrue(const CallArgs &args, Value &out) {
  RankedTensorType type = tensorType(out, args.loc);
  mlir::Value c = type ? operand(*args.get(0, "condition"), args.loc) : nullptr;
  if (!c)
    return false;
  mlir::Location l = loc(args.loc);
  auto ct = llvm::cast<RankedTensorType>(c.getType());
  int64_t rank = ct.getRank();
  if (rank == 0)
    return fail(args.loc, "tf.where of a scalar condition is not supported by agc");
  llvm::SmallVector<mlir::Value> dims = sizesOf(*this, c, l);
  mlir::Value n = indexConstant(1, l);
  for (mlir::Value d : dims)
    n = arith::MulIOp::create(builder, l, n, d);
  auto flatType = RankedTensorType::get(
      {ct.hasStaticShape() ? ct.getNumElements() : mlir::ShapedType::kDynamic},
      ct.getElementType());
  mlir::Value flat = reshape(c, flatType, {n}, l);
  mlir::Value zero = indexConstant(0, l), one = indexConstant(1, l);
  auto counting = mlir::scf::ForOp::create(
      builder, l, zero, n, one, mlir::ValueRange{zero},
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::Value k, mlir::ValueRange acc) {
        mlir::Value v = mlir::tensor::ExtractOp::create(b, bl, flat, mlir::ValueRange{k});
        mlir::Value add = arith::SelectOp::create(b, bl, v, cIndex(b, bl, 1), cIndex(b, bl, 0));
        mlir::scf::YieldOp::create(b, bl, mlir::ValueRange{arith::AddIOp::create(b, bl, acc[0], add).getResult()});
      });
  mlir::Value count = counting.getResult(0);
  mlir::Value result = empty(type, {count, indexConstant(rank, l)}, l);
  mlir::Type i64 = type.getElementType();
  auto writing = mlir::scf::ForOp::create(
      builder, l, zero, n, one, mlir::ValueRange{result, zero},
      [&](mlir::OpBuilder &b, mlir::Location bl, mlir::Value k, mlir::ValueRange carried) {
        mlir::Value v = mlir::tensor::ExtractOp::create(b, bl, flat, mlir::ValueRange{k});
        auto branch = mlir::scf::IfOp::create(b, bl, mlir::TypeRange{type, b.getIndexType()}, v, true);
        {
          mlir::OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(branch.thenBlock());
          mlir::Value t = carried[0], rest = k;
          for (int64_t d = rank - 1; d >= 0; --d) {
            mlir::Value coord = arith::RemUIOp::create(b, bl, rest, dims[d]);
            rest = arith::DivUIOp::create(b, bl, rest, dims[d]);
            mlir::Value e = arith::IndexCastOp::create(b, bl, i64, coord);
            t = mlir::tensor::InsertOp::create(b, bl, e, t, mlir::ValueRange{carried[1], cIndex(b, bl, d)});
          }
          mlir::Value next = arith::AddIOp::create(b, bl, carried[1], cIndex(b, bl, 1));
          mlir::scf::YieldOp::create(b, bl, mlir::ValueRange{t, next});
          b.setInsertionPointToStart(branch.elseBlock());
          mlir::scf::YieldOp::create(b, bl, carried);
        }
        mlir::scf::YieldOp::create(b, bl, branch.getResults());
      });
  return produce(out, writing.getResult(0), type, l);
}
