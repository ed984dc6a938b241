//===- TracerMethods.cpp - Methods of tensors, variables and tensor arrays --===//
//
// `x.set_shape(...)`, `v.assign(...)`, `ta.write(...)`, `list.append(...)`; a tensor's
// other methods are the tf functions of the same name (`x.numpy()` is refused).
//
//===----------------------------------------------------------------------------------===//
#include "TracerImpl.h"

using namespace ag;
using namespace ag::analysis;
using llvm::dyn_cast;

std::optional<Value> Tracer::Impl::callMethod(const Value &method, const CallArgs &args,
                                              const ast::CallExpr &expr) {
  const Value &self = method.elements[0];
  llvm::StringRef name = method.name;
  const Location &loc = args.loc;
  // The receiver's name, for methods that rebind it (set_shape, list.append).
  const auto *callee = dyn_cast<ast::AttributeExpr>(&expr.getCallee());
  const auto *receiver = callee ? dyn_cast<ast::NameExpr>(&callee->getValue()) : nullptr;
  auto rebind = [&](Value v) {
    Value *bound = receiver ? bindingOf(receiver->getId()) : nullptr;
    if (!bound)
      return;
    v.boundAt = bound->boundAt;
    *bound = std::move(v);
  };

  if (self.kind == Value::Kind::Tensor) {
    if (name == "set_shape") {
      const Value *shape = args.get(0, "shape");
      std::optional<Shape> s = shape ? shapeFrom(*shape, loc) : std::nullopt;
      if (!s)
        return std::nullopt;
      if (!self.shape.isCompatibleWith(*s))
        return error(loc, "set_shape(): shapes " + self.shape.str() + " and " + s->str() +
                              " are incompatible");
      Shape refined = *s;
      if (self.shape.rankKnown && s->rankKnown)
        for (unsigned i = 0; i < refined.rank(); ++i)
          if (refined.dims[i] < 0)
            refined.dims[i] = self.shape.dims[i];
      Value narrowed = Value::tensor(self.dtype, refined);
      if (emitter && !emitter->castTo(narrowed, self, loc)) {
        failed = true;
        return std::nullopt;
      }
      rebind(std::move(narrowed));
      return Value::none();
    }
    if (name == "get_shape")
      return attribute(self, "shape", loc);
    if (name == "numpy")
      return error(loc, ".numpy() needs the tensor's value, which exists only at run time");
    CallArgs withSelf = args;
    withSelf.positional.insert(withSelf.positional.begin(), self);
    return callTF("tf." + name.str(), withSelf);
  }
  if (self.kind == Value::Kind::Variable) {
    if (name == "assign" || name == "assign_add" || name == "assign_sub") {
      const Value *v = args.get(0, "value");
      if (!v)
        return error(loc, name + "() is missing its value");
      std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, self.dtype);
      if (!t)
        return std::nullopt;
      if (t->dtype != self.dtype)
        return error(loc, "cannot " + name + " " + t->describe() + " to " + self.describe());
      if (!self.shape.isCompatibleWith(t->shape))
        return error(loc, "cannot " + name + " a value of shape " + t->shape.str() + " to " +
                              self.describe());
      if (emitter && !emitter->assignVariable(name, self, *t, loc)) {
        failed = true;
        return std::nullopt;
      }
      return self;
    }
    if (name == "read_value" || name == "value")
      return asTensor(self, loc);
    return error(loc, "tf.Variable has no method '" + name + "' agc knows");
  }
  if (self.kind == Value::Kind::TensorArray) {
    std::optional<Value> out = tensorArrayMethod(self, name, args);
    if (out && emitter && !emitter->tensorArray(name, self, args, *out)) {
      failed = true;
      return std::nullopt;
    }
    return out;
  }
  if (self.kind == Value::Kind::List && name == "append") {
    if (args.positional.size() != 1)
      return error(loc, "list.append() takes one argument");
    Value out = self;
    out.elements.push_back(args.positional[0]);
    rebind(std::move(out));
    return Value::none();
  }
  return error(loc, self.describe() + " has no method '" + name + "' agc knows");
}

std::optional<Value> Tracer::Impl::tensorArrayMethod(const Value &self, llvm::StringRef name,
                                                     const CallArgs &args) {
  const Location &loc = args.loc;
  if (name == "write") {
    const Value *i = args.get(0, "index"), *v = args.get(1, "value");
    if (!i || !v)
      return error(loc, "TensorArray.write() takes an index and a value");
    std::optional<Value> t = v->isTensorLike() ? asTensor(*v, loc) : toTensor(*v, loc, self.dtype);
    if (!t)
      return std::nullopt;
    if (t->dtype != self.dtype)
      return error(loc, "TensorArray.write(): the array holds " + dtypeName(self.dtype) +
                            " but the value is " + t->describe());
    if (!self.shape.isCompatibleWith(t->shape))
      return error(loc, "TensorArray.write(): the array holds elements of shape " +
                            self.shape.str() + " but the value has shape " + t->shape.str());
    // The element shape: the first write's, relaxed where later writes differ.
    Value out = self;
    out.shape = self.shape.rankKnown ? self.shape.join(t->shape) : t->shape;
    auto [slot, fresh] = tensorArrayShapes.insert(
        {{self.createdAt.begin.line, self.createdAt.begin.column}, out.shape});
    if (!fresh)
      slot->second = slot->second.join(out.shape);
    return out;
  }
  if (name == "read")
    return Value::tensor(self.dtype, self.shape);
  if (name == "stack") {
    Shape s = self.shape;
    if (s.rankKnown)
      s.dims.insert(s.dims.begin(), self.dynamicSize ? -1 : self.size);
    return Value::tensor(self.dtype, s);
  }
  if (name == "size")
    return Value::tensor(DType::Int32, Shape::scalar());
  if (name == "unstack") {
    const Value *v = args.get(0, "value");
    std::optional<Value> t = v ? asTensor(*v, loc) : std::nullopt;
    if (!t)
      return std::nullopt;
    Value out = self;
    out.shape = t->shape;
    if (out.shape.rankKnown && out.shape.rank() > 0)
      out.shape.dims.erase(out.shape.dims.begin());
    auto [slot, fresh] = tensorArrayShapes.insert(
        {{self.createdAt.begin.line, self.createdAt.begin.column}, out.shape});
    if (!fresh)
      slot->second = slot->second.join(out.shape);
    return out;
  }
  return error(loc, "tf.TensorArray has no method '" + name + "' agc knows");
}
