//===- OpsIndexing.cpp - Tensor subscripts --------------------------------------===//
//
// x[i], x[a:b:c], x[None], x[...]: tensor.extract_slice and reshapes, with bounds checked
// at run time for indices known only then.
//
//===----------------------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace ag;
namespace arith = mlir::arith;

bool MLIRGen::rowCount(const Value &iterated, Value &out, const Location &at) {
  RankedTensorType type = tensorType(out, at);
  mlir::Value t = type ? operand(iterated, at) : nullptr;
  if (!t)
    return false;
  mlir::Location l = loc(at);
  // tensor.dim even of a static size (folded later, after -ag-prune-dead has seen the
  // use): the loop reads the tensor.
  mlir::Value n = mlir::tensor::DimOp::create(builder, l, t, 0);
  mlir::Value count = arith::IndexCastOp::create(builder, l, type.getElementType(), n);
  out.ir = handle(mlir::tensor::FromElementsOp::create(builder, l, type, mlir::ValueRange{count}));
  return true;
}

bool MLIRGen::subscript(const Value &base, llvm::ArrayRef<analysis::IndexItem> items, Value &out,
                        const Location &at) {
  using Item = analysis::IndexItem;
  RankedTensorType type = tensorType(out, at);
  mlir::Value t = type ? operand(base, at) : nullptr;
  if (!t)
    return false;
  mlir::Location l = loc(at);
  auto inType = llvm::cast<RankedTensorType>(t.getType());
  int64_t rank = inType.getRank();
  unsigned consumed = llvm::count_if(items, [](const Item &i) {
    return i.kind == Item::Kind::Index || i.kind == Item::Kind::Slice;
  });
  llvm::SmallVector<mlir::OpFoldResult> offsets, sizes, strides;
  llvm::SmallVector<int64_t> sliceShape; // the kept dimensions
  llvm::SmallVector<mlir::Value> keptSizes;
  llvm::SmallVector<bool> isNew;           // per result dimension: a new axis
  int64_t d = 0;
  auto full = [&]() {
    offsets.push_back(builder.getIndexAttr(0));
    mlir::Value n = dimSize(t, d, l);
    sizes.push_back(inType.isDynamicDim(d) ? mlir::OpFoldResult(n)
                                           : mlir::OpFoldResult(builder.getIndexAttr(inType.getDimSize(d))));
    strides.push_back(builder.getIndexAttr(1));
    sliceShape.push_back(inType.getDimSize(d));
    keptSizes.push_back(n);
    isNew.push_back(false);
    ++d;
  };
  auto clampIndex = [&](mlir::Value v, mlir::Value lo, mlir::Value hi) {
    return arith::MinSIOp::create(builder, l, arith::MaxSIOp::create(builder, l, v, lo), hi).getResult();
  };
  // A slice with a negative step, x[a:b:-s], is a slice with step s of x reversed along
  // its dimension: x[a - k s] is reversed[n - 1 - a + k s].
  {
    llvm::SmallVector<bool> reversed(rank, false);
    int64_t dim = 0;
    for (const Item &item : items) {
      if (item.kind == Item::Kind::Ellipsis)
        dim += rank - consumed;
      else if (item.kind == Item::Kind::Index)
        ++dim;
      else if (item.kind == Item::Kind::Slice)
        reversed[dim++] = item.step.value_or(1) < 0;
    }
    if (llvm::is_contained(reversed, true))
      t = reverseDims(t, reversed, l);
  }
  for (const Item &item : items) {
    switch (item.kind) {
    case Item::Kind::Ellipsis:
      for (unsigned k = 0; k < rank - consumed; ++k)
        full();
      break;
    case Item::Kind::NewAxis:
      isNew.push_back(true);
      break;
    case Item::Kind::Index: {
      mlir::Value n = dimSize(t, d, l);
      mlir::Value i, given;
      if (item.index.kind == Value::Kind::Int) {
        int64_t k = item.index.i;
        given = indexConstant(k, l);
        if (k < 0 && !inType.isDynamicDim(d))
          k += inType.getDimSize(d);
        i = indexConstant(k, l);
        if (k < 0)
          i = arith::AddIOp::create(builder, l, i, n);
      } else {
        mlir::Value v = operand(item.index, item.loc);
        if (!v)
          return false;
        mlir::Value s = mlir::tensor::ExtractOp::create(builder, l, v, mlir::ValueRange{});
        i = given = arith::IndexCastOp::create(builder, l, builder.getIndexType(), s);
        // A negative index counts from the end.
        mlir::Value negative = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, i,
                                                     indexConstant(0, l));
        i = arith::SelectOp::create(builder, l, negative, arith::AddIOp::create(builder, l, i, n), i);
      }
      // TensorFlow's "slice index out of bounds": 0 <= i < n once a negative i has counted
      // from the end (one unsigned comparison).
      mlir::Value guarded[] = {i};
      check(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ult, i, n),
            "index {0} is out of bounds for dimension " + llvm::Twine(d) + ", of size {1}",
            {given, n}, loc(item.loc), guarded);
      offsets.push_back(guarded[0]);
      sizes.push_back(builder.getIndexAttr(1));
      strides.push_back(builder.getIndexAttr(1));
      ++d;
      break;
    }
    case Item::Kind::Slice: {
      int64_t step = item.step.value_or(1);
      // Python's bounds: with a positive step in [0, n] (defaults 0 and n), with a negative
      // one in [-1, n - 1] (defaults n - 1 and -1, "before the first"), the slice from lo
      // towards hi; a negative step reads the reversed dimension from n - 1 - lo.
      bool backwards = step < 0;
      bool tensorBound = item.loTensor.isDefined() || item.hiTensor.isDefined();
      if (!inType.isDynamicDim(d) && !tensorBound) {
        int64_t size = inType.getDimSize(d);
        int64_t least = backwards ? -1 : 0, most = backwards ? size - 1 : size;
        auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + size : i, least, most); };
        int64_t lo = item.lo ? clamp(*item.lo) : (backwards ? size - 1 : 0);
        int64_t hi = item.hi ? clamp(*item.hi) : (backwards ? -1 : size);
        int64_t stride = backwards ? -step : step;
        int64_t span = backwards ? lo - hi : hi - lo;
        int64_t count = span > 0 ? (span + stride - 1) / stride : 0;
        offsets.push_back(builder.getIndexAttr(backwards ? std::max<int64_t>(size - 1 - lo, 0) : lo));
        sizes.push_back(builder.getIndexAttr(count));
        sliceShape.push_back(count);
        keptSizes.push_back(indexConstant(count, l));
      } else {
        mlir::Value n = dimSize(t, d, l), zero = indexConstant(0, l), one = indexConstant(1, l);
        mlir::Value least = backwards ? indexConstant(-1, l) : zero;
        mlir::Value most = backwards ? arith::SubIOp::create(builder, l, n, one).getResult() : n;
        // A negative bound counts from the end; then both clamp to [least, most].
        auto bound = [&](std::optional<int64_t> b, const Value &t, mlir::Value dflt) -> mlir::Value {
          mlir::Value v;
          if (t.isDefined()) {
            mlir::Value tv = operand(t, item.loc);
            if (!tv)
              return nullptr;
            v = arith::IndexCastOp::create(builder, l, builder.getIndexType(),
                                           mlir::tensor::ExtractOp::create(builder, l, tv, mlir::ValueRange{}));
            mlir::Value negative = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, v, zero);
            v = arith::SelectOp::create(builder, l, negative, arith::AddIOp::create(builder, l, v, n), v);
            return clampIndex(v, least, most);
          }
          if (!b)
            return dflt;
          v = indexConstant(*b, l);
          if (*b < 0)
            v = arith::AddIOp::create(builder, l, v, n);
          return clampIndex(v, least, most);
        };
        mlir::Value lo = bound(item.lo, item.loTensor, backwards ? most : zero);
        mlir::Value hi = lo ? bound(item.hi, item.hiTensor, backwards ? least : n) : nullptr;
        if (!hi)
          return false;
        mlir::Value diff = backwards ? arith::SubIOp::create(builder, l, lo, hi).getResult()
                                     : arith::SubIOp::create(builder, l, hi, lo).getResult();
        mlir::Value span = arith::MaxSIOp::create(builder, l, diff, zero);
        mlir::Value count = arith::CeilDivSIOp::create(builder, l, span,
                                                       indexConstant(backwards ? -step : step, l));
        // Reversed: from n - 1 - lo, which is n when lo is -1 (then nothing is read).
        if (backwards)
          lo = arith::SubIOp::create(builder, l, most, lo);
        offsets.push_back(lo);
        sizes.push_back(count);
        sliceShape.push_back(mlir::ShapedType::kDynamic);
        keptSizes.push_back(count);
      }
      strides.push_back(builder.getIndexAttr(backwards ? -step : step));
      isNew.push_back(false);
      ++d;
      break;
    }
    }
  }
  while (d < rank)
    full();
  // One element: tensor.extract, which folds with what made the tensor (tf.range's
  // tensor.generate, a tensor.from_elements).
  if (sliceShape.empty() && !llvm::is_contained(isNew, true) && type.getRank() == 0) {
    llvm::SmallVector<mlir::Value> indices;
    for (mlir::OpFoldResult o : offsets)
      indices.push_back(llvm::isa<mlir::Value>(o)
                            ? llvm::cast<mlir::Value>(o)
                            : indexConstant(llvm::cast<mlir::IntegerAttr>(llvm::cast<mlir::Attribute>(o)).getInt(), l));
    mlir::Value e = mlir::tensor::ExtractOp::create(builder, l, t, indices);
    out.ir = handle(mlir::tensor::FromElementsOp::create(builder, l, type, mlir::ValueRange{e}));
    return true;
  }
  auto sliceType = RankedTensorType::get(sliceShape, inType.getElementType());
  // A slice with no elements is an empty tensor (the verifier of tensor.extract_slice
  // refuses static offsets into a dimension of size 0).
  bool none = llvm::any_of(sizes, [](mlir::OpFoldResult s) {
    auto attr = llvm::dyn_cast_if_present<mlir::Attribute>(s);
    return attr && llvm::cast<mlir::IntegerAttr>(attr).getInt() == 0;
  }) || llvm::is_contained(inType.getShape(), 0);
  mlir::Value r = none ? empty(sliceType, keptSizes, l)
                       : mlir::tensor::ExtractSliceOp::create(builder, l, sliceType, t, offsets,
                                                              sizes, strides).getResult();
  // An empty slice reads no offset, yet TensorFlow still checks its indices.
  if (none) {
    llvm::SmallVector<mlir::Value> indices;
    for (mlir::OpFoldResult o : offsets)
      if (auto index = llvm::dyn_cast<mlir::Value>(o))
        indices.push_back(index);
    r = dependOn(r, indices, l);
  }
  // New axes: a reshape that adds the 1s.
  if (llvm::is_contained(isNew, true)) {
    llvm::SmallVector<int64_t> shape;
    llvm::SmallVector<mlir::Value> newSizes;
    unsigned k = 0;
    for (bool n : isNew) {
      shape.push_back(n ? 1 : sliceShape[k]);
      newSizes.push_back(n ? indexConstant(1, l) : keptSizes[k]);
      if (!n)
        ++k;
    }
    r = reshape(r, RankedTensorType::get(shape, inType.getElementType()), newSizes, l);
  }
  return produce(out, r, type, l);
}
