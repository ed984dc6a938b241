//===- agc/runtime.hpp - RAII wrappers over agc/runtime.h -------------------===//
//
// agc::Tensor owns an output (its destructor calls agc_tensor_free) or views caller data
// (Tensor::view); it converts to the `agc_tensor *` the entry points take. agc::check
// turns a failed call into an agc::Error exception carrying the status:
//
//     float xs[5] = {...};
//     agc::Tensor x = agc::Tensor::view(AGC_FLOAT32, {5}, xs), y;
//     agc_status status;
//     agc::check(model_squash(x, y, &status), status);
//     const float *out = y.data<float>();
//
//===----------------------------------------------------------------------------------===//
#ifndef AGC_RUNTIME_HPP
#define AGC_RUNTIME_HPP

#include "agc/runtime.h"

#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace agc {

class Tensor {
public:
  Tensor() { std::memset(&t_, 0, sizeof t_); }
  /// A view of caller-owned `data` (not freed by the destructor).
  static Tensor view(agc_dtype dtype, std::initializer_list<int64_t> shape, void *data) {
    Tensor t;
    t.t_ = agc_tensor_wrap(dtype, static_cast<int32_t>(shape.size()), shape.begin(), data);
    return t;
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;
  Tensor(Tensor &&other) noexcept : t_(other.t_) { other.t_.owner = nullptr; }
  Tensor &operator=(Tensor &&other) noexcept {
    if (this != &other) {
      agc_tensor_free(&t_);
      t_ = other.t_;
      other.t_.owner = nullptr;
    }
    return *this;
  }
  ~Tensor() { agc_tensor_free(&t_); }

  operator agc_tensor *() { return &t_; }
  operator const agc_tensor *() const { return &t_; }

  agc_dtype dtype() const { return t_.dtype; }
  int32_t rank() const { return t_.rank; }
  int64_t dim(int32_t d) const { return t_.shape[d]; }
  int64_t size() const { return agc_tensor_size(&t_); }
  template <typename T> T *data() { return static_cast<T *>(t_.data); }
  template <typename T> const T *data() const { return static_cast<const T *>(t_.data); }

private:
  agc_tensor t_;
};

/// The status of a failed call, as an exception.
class Error : public std::runtime_error {
public:
  Error(int code, const std::string &message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

private:
  int code_;
};

/// Throws agc::Error when an entry point returned an error code.
inline void check(int code, const agc_status &status) {
  if (code != AGC_OK)
    throw Error(code, status.message);
}

} // namespace agc

#endif // AGC_RUNTIME_HPP
