// Game of Life experiment: a self-contained PNG writer (8-bit greyscale,
// the image data in stored, i.e. uncompressed, deflate blocks), with the
// CRC-32 and Adler-32 that the format needs. MPI-free.
#ifndef ORTHOCOMM_EXPERIMENTS_LIFE_PNG_H_
#define ORTHOCOMM_EXPERIMENTS_LIFE_PNG_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace life {

// CRC-32 (ISO-HDLC, as PNG chunks use it) and Adler-32 (as zlib streams
// end with it), continued from `previous` for the CRC.
std::uint32_t crc32(std::span<const std::uint8_t> bytes,
                    std::uint32_t previous = 0);
std::uint32_t adler32(std::span<const std::uint8_t> bytes);

// The PNG file of a width x height greyscale image, `pixels` row by row
// (0 black, 255 white). Throws classic::Error (count) unless pixels.size()
// == width * height and both are positive.
std::vector<std::uint8_t> encode_png(int width, int height,
                                     std::span<const std::uint8_t> pixels);

// A board of cells (1 alive) as pixels: each cell a scale x scale square,
// alive black on white.
std::vector<std::uint8_t> board_pixels(std::span<const std::uint8_t> cells,
                                       int rows, int columns, int scale);

// Writes encode_png's bytes to `path`. Throws classic::Error (other) when
// the file cannot be written.
void write_png(const std::string& path, int width, int height,
               std::span<const std::uint8_t> pixels);

}  // namespace life

#endif  // ORTHOCOMM_EXPERIMENTS_LIFE_PNG_H_
