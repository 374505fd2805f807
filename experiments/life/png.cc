#include "experiments/life/png.h"

#include <algorithm>
#include <array>
#include <fstream>

#include "classic/base/error.h"

namespace life {
namespace {

constexpr std::size_t kStoredBlock = 65535;  // deflate's largest stored block

void put32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<std::uint8_t>(value >> shift));
  }
}

// length, type, data, CRC of type and data.
void put_chunk(std::vector<std::uint8_t>& out, const char* type,
               std::span<const std::uint8_t> data) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  put32(out, crc32({out.data() + start, out.size() - start}));
}

// A zlib stream of stored deflate blocks: header 78 01, blocks of at most
// 65535 bytes (final flag, LEN, NLEN little-endian, the bytes), Adler-32.
std::vector<std::uint8_t> zlib_stored(std::span<const std::uint8_t> raw) {
  std::vector<std::uint8_t> out{0x78, 0x01};
  std::size_t done = 0;
  do {
    const std::size_t length = std::min(kStoredBlock, raw.size() - done);
    const bool last = done + length == raw.size();
    out.push_back(last ? 1 : 0);
    const auto len = static_cast<std::uint16_t>(length);
    const auto nlen = static_cast<std::uint16_t>(~len);
    for (const std::uint16_t v : {len, nlen}) {
      out.push_back(static_cast<std::uint8_t>(v & 0xff));
      out.push_back(static_cast<std::uint8_t>(v >> 8));
    }
    out.insert(out.end(), raw.begin() + static_cast<long>(done),
               raw.begin() + static_cast<long>(done + length));
    done += length;
  } while (done < raw.size());
  put32(out, adler32(raw));
  return out;
}

}  // namespace

std::uint32_t crc32(std::span<const std::uint8_t> bytes,
                    std::uint32_t previous) {
  std::uint32_t crc = ~previous;
  for (const std::uint8_t byte : bytes) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1U)));
    }
  }
  return ~crc;
}

std::uint32_t adler32(std::span<const std::uint8_t> bytes) {
  std::uint32_t a = 1;
  std::uint32_t b = 0;
  for (const std::uint8_t byte : bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

std::vector<std::uint8_t> encode_png(int width, int height,
                                     std::span<const std::uint8_t> pixels) {
  if (width < 1 || height < 1 ||
      pixels.size() != static_cast<std::size_t>(width) *
                           static_cast<std::size_t>(height)) {
    throw classic::Error(classic::ErrorClass::count, "life::encode_png",
                         "pixels do not fill a positive width x height");
  }
  std::vector<std::uint8_t> out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<std::uint8_t> header;
  put32(header, static_cast<std::uint32_t>(width));
  put32(header, static_cast<std::uint32_t>(height));
  // Bit depth 8, colour type 0 (greyscale), deflate, adaptive filters (each
  // row says "none"), no interlace.
  header.insert(header.end(), {8, 0, 0, 0, 0});
  put_chunk(out, "IHDR", header);
  std::vector<std::uint8_t> raw;
  const auto row = static_cast<std::size_t>(width);
  for (std::size_t y = 0; y < static_cast<std::size_t>(height); ++y) {
    raw.push_back(0);  // filter: none
    raw.insert(raw.end(), pixels.begin() + static_cast<long>(y * row),
               pixels.begin() + static_cast<long>((y + 1) * row));
  }
  put_chunk(out, "IDAT", zlib_stored(raw));
  put_chunk(out, "IEND", {});
  return out;
}

std::vector<std::uint8_t> board_pixels(std::span<const std::uint8_t> cells,
                                       int rows, int columns, int scale) {
  const auto width = static_cast<std::size_t>(columns * scale);
  std::vector<std::uint8_t> pixels(width * static_cast<std::size_t>(rows * scale));
  for (std::size_t y = 0; y < pixels.size() / width; ++y) {
    for (std::size_t x = 0; x < width; ++x) {
      const std::size_t cell = (y / static_cast<std::size_t>(scale)) *
                                   static_cast<std::size_t>(columns) +
                               x / static_cast<std::size_t>(scale);
      pixels[y * width + x] = cells[cell] != 0 ? 0 : 255;
    }
  }
  return pixels;
}

void write_png(const std::string& path, int width, int height,
               std::span<const std::uint8_t> pixels) {
  const std::vector<std::uint8_t> bytes = encode_png(width, height, pixels);
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  if (!file) {
    throw classic::Error(classic::ErrorClass::other, "life::write_png",
                         "cannot write " + path);
  }
}

}  // namespace life
