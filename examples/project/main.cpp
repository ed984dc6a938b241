// The example project's C++ program: the same two compiled functions through agc's RAII
// wrappers (agc/runtime.hpp), a failed call an agc::Error exception.
#include <cstdio>
#include <exception>

#include "agc/runtime.hpp"
#include "counter.h"
#include "model.h"

int main() {
  float xs[4] = {3.0f, -2.0f, 1.5f, 0.25f};
  agc::Tensor x = agc::Tensor::view(AGC_FLOAT32, {4}, xs);
  agc_status status;
  try {
    agc::Tensor settled, steps;
    agc::check(model_settle(x, settled, steps, &status), status);
    std::printf("settle:");
    for (int64_t i = 0; i < settled.size(); ++i)
      std::printf(" %.6g", settled.data<float>()[i]);
    std::printf(" after %d steps\n", *steps.data<int32_t>());

    for (int call = 0; call < 2; ++call) {
      agc::Tensor total;
      agc::check(counter_accumulate(x, total, &status), status);
      std::printf("accumulate: %.6g\n", *total.data<float>());
    }

    // A wrong rank is refused with a status, here an exception.
    float grid[2][2] = {{1, 2}, {3, 4}};
    agc::Tensor matrix = agc::Tensor::view(AGC_FLOAT32, {2, 2}, grid), none;
    agc::check(counter_accumulate(matrix, none, &status), status);
  } catch (const agc::Error &error) {
    std::printf("refused: %s\n", error.what());
  }
  return 0;
}
