// Tests of the Game of Life experiment's PNG writer: the check sums against
// their published check values, and the file read back by a small reader
// of stored deflate blocks (chunk CRCs, zlib header, block lengths,
// Adler-32, the filtered rows).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "classic/base/error.h"
#include "experiments/life/png.h"
#include "tests/testing/errors.h"

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes bytes_of(std::string_view text) { return Bytes(text.begin(), text.end()); }

std::uint32_t read32(const Bytes& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
         (std::uint32_t{b[at + 2]} << 8) | std::uint32_t{b[at + 3]};
}

struct Chunk {
  std::string type;
  Bytes data;
};

// The chunks of a PNG file, each CRC checked.
std::vector<Chunk> chunks(const Bytes& png) {
  std::vector<Chunk> found;
  std::size_t at = 8;
  while (at < png.size()) {
    const std::uint32_t length = read32(png, at);
    const Bytes typed(png.begin() + static_cast<long>(at + 4),
                      png.begin() + static_cast<long>(at + 8 + length));
    EXPECT_EQ(read32(png, at + 8 + length), life::crc32(typed));
    found.push_back({std::string(typed.begin(), typed.begin() + 4),
                     Bytes(typed.begin() + 4, typed.end())});
    at += 12 + length;
  }
  return found;
}

// Inflates a zlib stream of stored blocks (what encode_png writes).
Bytes inflate_stored(const Bytes& z) {
  EXPECT_EQ(z[0], 0x78);
  EXPECT_EQ((z[0] * 256 + z[1]) % 31, 0);  // zlib's header check
  Bytes out;
  std::size_t at = 2;
  bool last = false;
  while (!last) {
    last = (z[at] & 1) != 0;
    EXPECT_EQ(z[at] >> 1, 0);  // BTYPE 00: stored
    const unsigned length = z[at + 1] | (z[at + 2] << 8);
    const unsigned check = z[at + 3] | (z[at + 4] << 8);
    EXPECT_EQ(length ^ 0xffffU, check);
    out.insert(out.end(), z.begin() + static_cast<long>(at + 5),
               z.begin() + static_cast<long>(at + 5 + length));
    at += 5 + length;
  }
  EXPECT_EQ(read32(z, at), life::adler32(out));
  EXPECT_EQ(at + 4, z.size());
  return out;
}

TEST(Checksums, PublishedCheckValues) {
  EXPECT_EQ(life::crc32(bytes_of("123456789")), 0xCBF43926U);
  EXPECT_EQ(life::crc32(bytes_of("")), 0U);
  EXPECT_EQ(life::adler32(bytes_of("Wikipedia")), 0x11E60398U);
  EXPECT_EQ(life::adler32(bytes_of("")), 1U);
  // Continued CRC equals the CRC of the whole.
  EXPECT_EQ(life::crc32(bytes_of("6789"), life::crc32(bytes_of("12345"))),
            0xCBF43926U);
}

TEST(EncodePng, ReadsBack) {
  const Bytes pixels{0, 255, 128, 7, 8, 9};  // 3 x 2
  const Bytes png = life::encode_png(3, 2, pixels);
  EXPECT_EQ(Bytes(png.begin(), png.begin() + 8),
            (Bytes{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}));
  const std::vector<Chunk> found = chunks(png);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].type, "IHDR");
  EXPECT_EQ(read32(found[0].data, 0), 3u);
  EXPECT_EQ(read32(found[0].data, 4), 2u);
  EXPECT_EQ(Bytes(found[0].data.begin() + 8, found[0].data.end()),
            (Bytes{8, 0, 0, 0, 0}));
  EXPECT_EQ(found[1].type, "IDAT");
  EXPECT_EQ(inflate_stored(found[1].data),
            (Bytes{0, 0, 255, 128, 0, 7, 8, 9}));
  EXPECT_EQ(found[2].type, "IEND");
  EXPECT_TRUE(found[2].data.empty());
}

TEST(EncodePng, LargeImagesSpanSeveralStoredBlocks) {
  const int width = 400;
  const int height = 400;  // 160,400 bytes of rows: three stored blocks
  Bytes pixels(static_cast<std::size_t>(width * height));
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    pixels[i] = static_cast<std::uint8_t>(i * 7);
  }
  const std::vector<Chunk> found = chunks(life::encode_png(width, height, pixels));
  const Bytes raw = inflate_stored(found[1].data);
  ASSERT_EQ(raw.size(), static_cast<std::size_t>((width + 1) * height));
  for (int y = 0; y < height; ++y) {
    const auto row = static_cast<std::size_t>(y * (width + 1));
    EXPECT_EQ(raw[row], 0);
    EXPECT_EQ(raw[row + 1], pixels[static_cast<std::size_t>(y * width)]);
  }
}

TEST(EncodePng, RefusesPixelsThatDoNotFit) {
  EXPECT_EQ(orthocomm_test::thrown_class(
                [] { life::encode_png(2, 2, Bytes(3)); }),
            classic::ErrorClass::count);
  EXPECT_EQ(orthocomm_test::thrown_class([] { life::encode_png(0, 1, {}); }),
            classic::ErrorClass::count);
}

TEST(BoardPixels, AliveBlackScaled) {
  const Bytes cells{1, 0, 0, 1};  // 2 x 2
  EXPECT_EQ(life::board_pixels(cells, 2, 2, 2),
            (Bytes{0, 0, 255, 255, 0, 0, 255, 255, 255, 255, 0, 0, 255, 255,
                   0, 0}));
}

}  // namespace
