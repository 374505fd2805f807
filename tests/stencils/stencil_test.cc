#include "stencils/stencil.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "classic/base/error.h"
#include "tests/testing/errors.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using orthocomm_test::expect_error_class;

TEST(StencilTest, FlatListIsSplitIntoOffsetsOfNdims) {
  const Stencil stencil(2, {1, 0, -1, 0, 0, 1});
  EXPECT_EQ(stencil.ndims(), 2);
  EXPECT_EQ(stencil.size(), 3);
  EXPECT_EQ(
      std::vector<int>(stencil.offset(1).begin(), stencil.offset(1).end()),
      (std::vector<int>{-1, 0}));
  EXPECT_EQ(stencil.flat().size(), 6u);
}

TEST(StencilTest, PushBackAppends) {
  Stencil stencil(3);
  EXPECT_TRUE(stencil.empty());
  stencil.push_back(std::vector<int>{1, 2, 3});
  stencil.push_back(std::vector<int>{1, 2, 3});  // Repeats are allowed.
  EXPECT_EQ(stencil, Stencil(3, {1, 2, 3, 1, 2, 3}));
}

TEST(StencilTest, ZeroDimensionalStencilCountsEmptyOffsets) {
  Stencil stencil(0);
  stencil.push_back(std::vector<int>{});
  stencil.push_back(std::vector<int>{});
  EXPECT_EQ(stencil.size(), 2);
  EXPECT_TRUE(stencil.offset(1).empty());
}

TEST(StencilTest, RejectsNegativeNdims) {
  expect_error_class([&] { Stencil stencil(-1); }, ErrorClass::dims);
}

TEST(StencilTest, RejectsFlatListNotAMultipleOfNdims) {
  expect_error_class([&] { Stencil stencil(2, {1, 2, 3}); }, ErrorClass::count);
}

TEST(StencilTest, RejectsNonEmptyFlatListWithZeroNdims) {
  expect_error_class([&] { Stencil stencil(0, {1}); }, ErrorClass::count);
}

TEST(StencilTest, RejectsOffsetIndexOutOfRange) {
  const Stencil stencil(1, {5});
  for (int i : {-1, 1}) {
    SCOPED_TRACE("i = " + std::to_string(i));
    expect_error_class([&] { stencil.offset(i); }, ErrorClass::arg);
  }
}

TEST(StencilTest, RejectsPushBackOfWrongLength) {
  Stencil stencil(2);
  expect_error_class([&] { stencil.push_back(std::vector<int>{1}); },
                     ErrorClass::arg);
}

}  // namespace
}  // namespace stencils
