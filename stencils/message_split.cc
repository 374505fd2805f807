#include "stencils/message_split.h"

namespace stencils {

int first_part_blocks(int blocks, std::size_t block_bytes,
                      std::size_t eager_bytes) {
  if (blocks < 2) return blocks;
  const auto count = static_cast<std::size_t>(blocks);
  const std::size_t first = (count + 1) / 2;
  const bool whole_fits = count * block_bytes <= eager_bytes;
  const bool halves_fit = first * block_bytes <= eager_bytes;
  return !whole_fits && halves_fit ? static_cast<int>(first) : blocks;
}

}  // namespace stencils
