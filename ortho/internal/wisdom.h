// Wisdom: what tuning measured, kept in a file (ORTHO_WISDOM=PATH) so that
// a later run of the same program on the same machine and communicator
// structure skips the measuring, as FFTW's wisdom skips its planning. This
// is the file's MPI-free part: its format, reading (which never fails: a
// file that is missing, foreign, truncated or corrupt yields the entries it
// holds intact and a warning for the rest), lookup and appending. Which
// process reads and writes, and the agreement on what was found, are
// tuning's (internal/tuning.cc).
//
// The file is text: the line "orthocomm-wisdom 1", then one entry per line,
//   DIGEST OPERATION MODE BAND CANDIDATES WINNER SECONDS
// DIGEST 16 hex digits (the communicator's structure, agreed by every
// process), OPERATION as ortho names it (allgather, ...), MODE blocking or
// persistent, BAND the size band measured (internal/tuning.h), CANDIDATES
// and SECONDS comma-separated (the agreed time of each candidate), WINNER
// one of the candidates. A later entry for the same key replaces an
// earlier one.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_WISDOM_H_
#define ORTHOCOMM_ORTHO_INTERNAL_WISDOM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "classic/exec/mode.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/operation.h"

namespace ortho::internal {

// What an entry is found by.
struct WisdomKey {
  std::uint64_t digest = 0;
  Operation operation = Operation::barrier;
  classic::Mode mode = classic::Mode::blocking;
  int band = 0;
  std::vector<std::string> candidates;

  bool operator==(const WisdomKey&) const = default;
};

struct WisdomEntry {
  WisdomKey key;
  std::string winner;
  std::vector<double> seconds;  // per candidate
};

struct Wisdom {
  // False where the file exists but is no wisdom file (another format, or
  // unreadable): it is then neither used nor written.
  bool usable = true;
  std::vector<WisdomEntry> entries;
  // One line each, naming the file and what was wrong (first few only).
  std::vector<std::string> warnings;
};

// The first line of every wisdom file.
inline constexpr std::string_view kWisdomHeader = "orthocomm-wisdom 1";

// An entry as one line (without the newline).
std::string format_wisdom_entry(const WisdomEntry& entry);
// The entry one line holds, or nullopt where it is malformed.
std::optional<WisdomEntry> parse_wisdom_entry(std::string_view line);

// Reads `path`. A missing file is usable and empty, without a warning.
Wisdom read_wisdom(const std::string& path);

// The latest entry for `key`, or null.
const WisdomEntry* find_wisdom(const Wisdom& wisdom, const WisdomKey& key);

// Adds `entry` to `path` (creating it with its header), replacing the file
// at once (a reader never sees half of it). Returns a warning where the
// file could not be written or is no wisdom file, otherwise empty.
std::string append_wisdom(const std::string& path, const WisdomEntry& entry);

// A 64-bit digest (FNV-1a) of `values` after `seed`.
std::uint64_t digest_of(std::uint64_t seed,
                        const std::vector<std::int64_t>& values);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_WISDOM_H_
