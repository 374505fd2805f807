// The split of a combined message at the eager limit: only where the
// message is above the limit and its halves are not, the first part taking
// the larger half.
#include "stencils/message_split.h"

#include <gtest/gtest.h>

namespace stencils {
namespace {

TEST(EagerSplitTest, SplitsOnlyWhereTheHalvesFitUnderTheLimit) {
  // 3-d Moore on a 2 x 2 x 2 torus, alltoall's merged message of 18 blocks:
  // 400 B blocks on shared memory (4 KiB), 4 KB blocks over TCP (64 KiB).
  EXPECT_EQ(first_part_blocks(18, 400, 4096), 9);
  EXPECT_EQ(first_part_blocks(18, 4000, 65536), 9);
  EXPECT_EQ(first_part_blocks(9, 400, 4096), 9);       // fits whole
  EXPECT_EQ(first_part_blocks(18, 40000, 65536), 18);  // halves too large
  EXPECT_EQ(first_part_blocks(3, 2000, 4096), 2);      // odd: 2 then 1
  EXPECT_EQ(first_part_blocks(2, 2048, 4096), 2);      // exactly the limit
  EXPECT_EQ(first_part_blocks(2, 2049, 4096), 1);
  EXPECT_EQ(first_part_blocks(2, 4097, 4096), 2);     // a half is too large
  EXPECT_EQ(first_part_blocks(1, 1 << 20, 4096), 1);  // one block stays
  EXPECT_EQ(first_part_blocks(0, 100, 4096), 0);
}

}  // namespace
}  // namespace stencils
