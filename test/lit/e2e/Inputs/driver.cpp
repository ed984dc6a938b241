// A C++ program over agc/runtime.hpp: RAII outputs, checked calls, and an exception for a
// wrong input.
#include "tanh_loop.h"

#include "agc/runtime.hpp"

#include <cstdio>

int main() {
  float xs[5] = {0.5f, 0.25f, 0.125f, 0.0f, -0.25f};
  agc::Tensor x = agc::Tensor::view(AGC_FLOAT32, {5}, xs), y;
  agc_status status;
  agc::check(tanh_loop_squash(x, y, &status), status);
  std::printf("squash: %g %g %g %g %g\n", y.data<float>()[0], y.data<float>()[1],
              y.data<float>()[2], y.data<float>()[3], y.data<float>()[4]);
  agc::Tensor moved = std::move(y); // ownership moves; freed once
  try {
    agc::Tensor wrong = agc::Tensor::view(AGC_FLOAT32, {2}, xs), out;
    agc::check(tanh_loop_squash(wrong, out, &status), status);
    std::printf("FAILED: no error\n");
    return 1;
  } catch (const agc::Error &e) {
    std::printf("error %d: %s\n", e.code(), e.what());
  }
  return 0;
}
