//===- RuntimeTest.cpp - agc's runtime, called directly --------------------===//
//
// The conversions of float16 and bfloat16 that the C interface offers (and agc run uses),
// checked against the compiler's own _Float16 where it has one, and on the values whose
// rounding is the hard part: ties, subnormals, overflow, NaN.
//
//===----------------------------------------------------------------------------------===//
#include "agc/runtime.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace {
float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
} // namespace

TEST_CASE("float16: every half converts to float and back to itself") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = agc_float16_to_float(uint16_t(h));
    bool nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
    if (nan) {
      CHECK(std::isnan(f));
      CHECK(std::isnan(agc_float16_to_float(agc_float_to_float16(f))));
      continue;
    }
    CHECK(agc_float_to_float16(f) == h);
  }
}

TEST_CASE("float16: rounding to nearest even, subnormals, overflow") {
  CHECK(agc_float_to_float16(1.0f) == 0x3C00);
  CHECK(agc_float_to_float16(65504.0f) == 0x7BFF);
  CHECK(agc_float_to_float16(65519.0f) == 0x7BFF); // below the midpoint to 65536
  CHECK(agc_float_to_float16(65520.0f) == 0x7C00); // the midpoint rounds to even: inf
  CHECK(agc_float_to_float16(-1e9f) == 0xFC00);
  CHECK(agc_float_to_float16(1.0f + 1.0f / 2048) == 0x3C00);  // tie, to even (down)
  CHECK(agc_float_to_float16(1.0f + 3.0f / 2048) == 0x3C02);  // tie, to even (up)
  CHECK(agc_float_to_float16(std::ldexp(1.0f, -24)) == 0x0001); // the least subnormal
  CHECK(agc_float_to_float16(std::ldexp(1.0f, -25)) == 0x0000); // its half: tie to 0
  CHECK(agc_float_to_float16(std::ldexp(3.0f, -26)) == 0x0001); // above the tie
  CHECK(agc_float_to_float16(-0.0f) == 0x8000);
  CHECK(agc_float16_to_float(0x0001) == std::ldexp(1.0f, -24));
#ifdef __FLT16_MAX__
  // Against the compiler's conversion, on random floats of every magnitude.
  std::mt19937 random(1234);
  for (int k = 0; k < 200000; ++k) {
    float f = bitsToFloat(uint32_t(random()));
    if (std::isnan(f))
      continue;
    _Float16 h = static_cast<_Float16>(f);
    uint16_t want;
    std::memcpy(&want, &h, sizeof want);
    CHECK(agc_float_to_float16(f) == want);
  }
#endif
}

TEST_CASE("bfloat16: the top half of a float32, rounded to nearest even") {
  CHECK(agc_float_to_bfloat16(1.0f) == 0x3F80);
  CHECK(agc_bfloat16_to_float(0x3F80) == 1.0f);
  CHECK(agc_float_to_bfloat16(bitsToFloat(0x3F808000)) == 0x3F80); // tie, to even (down)
  CHECK(agc_float_to_bfloat16(bitsToFloat(0x3F818000)) == 0x3F82); // tie, to even (up)
  CHECK(agc_float_to_bfloat16(bitsToFloat(0x3F808001)) == 0x3F81);
  CHECK(agc_float_to_bfloat16(30000.0f) == agc_float_to_bfloat16(29952.0f));
  CHECK(std::isnan(agc_bfloat16_to_float(agc_float_to_bfloat16(NAN))));
  CHECK(agc_float_to_bfloat16(INFINITY) == 0x7F80);
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float f = agc_bfloat16_to_float(uint16_t(b));
    if (!std::isnan(f))
      CHECK(agc_float_to_bfloat16(f) == b);
  }
}

TEST_CASE("dtype sizes and names of the C interface") {
  CHECK(agc_dtype_size(AGC_UINT8) == 1);
  CHECK(agc_dtype_size(AGC_INT16) == 2);
  CHECK(agc_dtype_size(AGC_FLOAT16) == 2);
  CHECK(agc_dtype_size(AGC_UINT64) == 8);
  CHECK(agc_dtype_size(AGC_STRING) == sizeof(agc_string));
  CHECK(std::string(agc_dtype_name(AGC_BFLOAT16)) == "bfloat16");
  CHECK(std::string(agc_dtype_name(AGC_UINT32)) == "uint32");
  // Complex elements are C's float _Complex and double _Complex: (real, imaginary) pairs.
  CHECK(agc_dtype_size(AGC_COMPLEX64) == 2 * sizeof(float));
  CHECK(agc_dtype_size(AGC_COMPLEX128) == 2 * sizeof(double));
  CHECK(std::string(agc_dtype_name(AGC_COMPLEX64)) == "complex64");
  CHECK(std::string(agc_dtype_name(AGC_COMPLEX128)) == "complex128");
}
