#include "experiments/halo/grid.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace halo {

std::string cell_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string cell_text(std::uint8_t value) { return std::to_string(value); }

double perturbed(double value) {
  return std::nextafter(value, std::numeric_limits<double>::infinity());
}

std::uint8_t perturbed(std::uint8_t value) {
  return static_cast<std::uint8_t>(value ^ 1U);
}

std::uint64_t checksum(const void* data, std::size_t bytes) {
  const auto* byte = static_cast<const unsigned char*>(data);
  std::uint64_t hash = 14695981039346656037ULL;
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= byte[i];
    hash *= 1099511628211ULL;
  }
  return hash;
}

namespace {

// splitmix64's finaliser.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace

std::uint64_t cell_hash(std::uint64_t seed, int row, int column) {
  const auto r = static_cast<std::uint32_t>(row);
  const auto c = static_cast<std::uint32_t>(column);
  return mix(mix(seed + 0x9e3779b97f4a7c15ULL) ^
             ((static_cast<std::uint64_t>(r) << 32) | c));
}

}  // namespace halo
