#include "ortho/internal/wisdom.h"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace ortho::internal {
namespace {

// At most this many warnings per file: a corrupt file says so, briefly.
constexpr std::size_t kMostWarnings = 3;

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

std::optional<classic::Mode> mode_named(std::string_view name) {
  if (name == "blocking") return classic::Mode::blocking;
  if (name == "persistent") return classic::Mode::persistent;
  return std::nullopt;
}

std::string_view name_of(classic::Mode mode) {
  return mode == classic::Mode::persistent ? "persistent" : "blocking";
}

template <class T>
std::optional<T> number(std::string_view text, int base = 10) {
  T value{};
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> seconds_from(std::string_view text) {
  // std::from_chars for double is not in GCC 10's library; strtod on a
  // copy reads the same decimal and hex forms.
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() ||
      !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

void warn(Wisdom& wisdom, const std::string& text) {
  if (wisdom.warnings.size() < kMostWarnings) wisdom.warnings.push_back(text);
}

}  // namespace

std::string format_wisdom_entry(const WisdomEntry& entry) {
  char digest[17];
  std::snprintf(digest, sizeof(digest), "%016llx",
                static_cast<unsigned long long>(entry.key.digest));  // NOLINT
  std::ostringstream line;
  line << digest << ' ' << to_string(entry.key.operation) << ' '
       << name_of(entry.key.mode) << ' ' << entry.key.band << ' ';
  for (std::size_t i = 0; i < entry.key.candidates.size(); ++i) {
    line << (i ? "," : "") << entry.key.candidates[i];
  }
  line << ' ' << entry.winner << ' ';
  line.precision(9);
  for (std::size_t i = 0; i < entry.seconds.size(); ++i) {
    line << (i ? "," : "") << entry.seconds[i];
  }
  return line.str();
}

std::optional<WisdomEntry> parse_wisdom_entry(std::string_view line) {
  const std::vector<std::string_view> fields = split(line, ' ');
  if (fields.size() != 7 || fields[0].size() != 16) return std::nullopt;
  WisdomEntry entry;
  const auto digest = number<std::uint64_t>(fields[0], 16);
  const auto operation = operation_named(fields[1]);
  const auto mode = mode_named(fields[2]);
  const auto band = number<int>(fields[3]);
  if (!digest || !operation || !mode || !band || *band < 0 || *band > 64) {
    return std::nullopt;
  }
  entry.key.digest = *digest;
  entry.key.operation = *operation;
  entry.key.mode = *mode;
  entry.key.band = *band;
  for (std::string_view name : split(fields[4], ',')) {
    if (name.empty()) return std::nullopt;
    entry.key.candidates.emplace_back(name);
  }
  entry.winner = fields[5];
  bool winner_is_candidate = false;
  for (const std::string& name : entry.key.candidates) {
    winner_is_candidate = winner_is_candidate || name == entry.winner;
  }
  if (!winner_is_candidate) return std::nullopt;
  for (std::string_view text : split(fields[6], ',')) {
    const auto seconds = seconds_from(text);
    if (!seconds) return std::nullopt;
    entry.seconds.push_back(*seconds);
  }
  if (entry.seconds.size() != entry.key.candidates.size()) return std::nullopt;
  return entry;
}

Wisdom read_wisdom(const std::string& path) {
  Wisdom wisdom;
  std::ifstream in(path);
  if (!in) {
    std::error_code error;
    if (std::filesystem::exists(path, error)) {
      wisdom.usable = false;
      warn(wisdom, "ortho: ORTHO_WISDOM file " + path +
                       " cannot be read; measuring instead");
    }
    return wisdom;
  }
  std::string line;
  if (!std::getline(in, line)) return wisdom;  // empty: as missing
  if (line != kWisdomHeader) {
    wisdom.usable = false;
    warn(wisdom,
         "ortho: ORTHO_WISDOM file " + path +
             " is not an orthocomm wisdom file (its first line is not '" +
             std::string(kWisdomHeader) + "'); not used, not written");
    return wisdom;
  }
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    if (auto entry = parse_wisdom_entry(line)) {
      wisdom.entries.push_back(std::move(*entry));
    } else {
      warn(wisdom, "ortho: ORTHO_WISDOM file " + path + " line " +
                       std::to_string(number) + " is malformed; ignored");
    }
  }
  return wisdom;
}

const WisdomEntry* find_wisdom(const Wisdom& wisdom, const WisdomKey& key) {
  for (auto entry = wisdom.entries.rbegin(); entry != wisdom.entries.rend();
       ++entry) {
    if (entry->key == key) return &*entry;
  }
  return nullptr;
}

std::string append_wisdom(const std::string& path, const WisdomEntry& entry) {
  const Wisdom wisdom = read_wisdom(path);
  if (!wisdom.usable) return wisdom.warnings.front();
  // The whole file again, through a temporary beside it and a rename, so
  // that a reader (another program's rank 0) sees the old or the new file.
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << kWisdomHeader << '\n';
    for (const WisdomEntry& kept : wisdom.entries) {
      if (!(kept.key == entry.key)) out << format_wisdom_entry(kept) << '\n';
    }
    out << format_wisdom_entry(entry) << '\n';
    if (!out.flush()) {
      std::remove(temporary.c_str());
      return "ortho: ORTHO_WISDOM file " + path + " cannot be written";
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::remove(temporary.c_str());
    return "ortho: ORTHO_WISDOM file " + path +
           " cannot be written: " + error.message();
  }
  return {};
}

std::uint64_t digest_of(std::uint64_t seed,
                        const std::vector<std::int64_t>& values) {
  std::uint64_t hash = 14695981039346656037ULL ^ seed;
  for (const std::int64_t value : values) {
    auto bits = static_cast<std::uint64_t>(value);
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= bits & 0xffU;
      hash *= 1099511628211ULL;
      bits >>= 8;
    }
  }
  return hash;
}

}  // namespace ortho::internal
