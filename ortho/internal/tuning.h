// Tuning: where the model may be wrong, the chooser measures. The
// candidates of an operation in a mode are the algorithms the model selects
// at some block size in that mode, those measured although unpriced (the
// transport's own neighbour collectives), then the other priced ones, at
// most kMostCandidates: the same on every process, since the choice is. Each
// runs on the caller's own calls, delivering the collective's result: in turns
// of consecutive calls, a round of short turns that screens out those far
// behind, then up to three rounds of ten calls each, all but the first call
// of each turn timed (internal/tuning_race.h). After each round the
// processes agree on each candidate's time so far as its maximum over the
// communicator (the slowest process's median over its turns of each
// turn's time: internal/tuning_race.h, TurnTime) and on the size bands
// measured, and the candidates far behind the fastest leave; after the last
// round the fastest wins, on every process alike.
//
// Blocking calls tune over the first calls of each operation on a
// communicator; the winner then runs every call in the bands measured, the
// model's choice the others. After a decision the processes compare the
// bands they met every kFirstBandCheck calls, then at twice the interval
// each time (up to kLastBandCheck): one allreduce of a 64-bit set; where
// some process met a band no decision covers, the next calls tune again. A
// persistent request tunes over its own first starts and keeps its winner.
// Non-blocking calls keep the model's choice: their time overlaps the caller's
// work and cannot be taken alone. Only the count of calls decides which
// candidate runs, never a process's own block size, so that a process without
// neighbours (which knows no block size) runs what the others run. ORTHO_TUNE=0
// turns tuning off.
//
// With ORTHO_WISDOM=PATH (set on every process), a tuning first looks for
// its decision in that file (internal/tuning_wisdom.h) and measures only
// where it finds none; what it measures it adds to the file.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_TUNING_H_
#define ORTHOCOMM_ORTHO_INTERNAL_TUNING_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/internal/choice.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/tuning_race.h"
#include "ortho/internal/wisdom.h"
#include "ortho/operation.h"

namespace ortho {
struct Table;
}  // namespace ortho

namespace ortho::internal {

// At most this many candidates are measured.
inline constexpr std::size_t kMostCandidates = 4;
// Calls between the comparisons of the bands met, after a decision: the
// first, doubling up to the last.
inline constexpr std::size_t kFirstBandCheck = 64;
inline constexpr std::size_t kLastBandCheck = 4096;

// Whether ORTHO_TUNE allows tuning (default: yes). Read once.
bool tuning_enabled();

// The size band of a block of `bytes`: 0 for none, else its bit width
// (1 B: 1, 2-3 B: 2, 4-7 B: 3, ...).
int size_band(std::size_t bytes);
// The bit of a band in a set of bands (Tuned::bands).
std::uint64_t band_bit(int band);

// What one tuning measured and decided.
struct Tuned {
  Operation operation = Operation::barrier;
  classic::Mode mode = classic::Mode::blocking;
  // The band measured (the largest over the processes) and every band the
  // processes met while measuring (bit b: band b).
  int band = 0;
  std::uint64_t bands = 0;
  std::vector<Algorithm> candidates;
  // Per candidate, its agreed time (s), and the fastest.
  std::vector<double> agreed_seconds;
  // Per candidate, the calls it ran while measuring (empty where the
  // decision came from the wisdom file).
  std::vector<std::size_t> runs;
  // The blocking turns' barriers (s; the least of any process's: what
  // the last to come waited; 0 where none ran: persistent requests,
  // wisdom).
  double barrier_seconds = 0;
  Algorithm winner;
  // Whether it was read from the wisdom file (internal/wisdom.h) instead
  // of measured.
  bool from_wisdom = false;
};

// A blocking operation's tuning on one table: whether it measures, the
// race of its measuring (internal/tuning_race.h) and the bands this
// process met in it; its decisions, the latest last; after one, the bands
// this process met since the last comparison and when that is due.
struct BlockingTuning {
  std::vector<Algorithm> candidates;
  bool measuring = true;
  std::optional<Race> race;
  std::uint64_t bands = 0;
  std::vector<Tuned> decided;
  std::uint64_t bands_since_check = 0;
  std::size_t calls_since_check = 0;
  std::size_t check_interval = kFirstBandCheck;
  // Whether the wisdom file was consulted (at the operation's first call),
  // and the key to save the decision under where it had none.
  bool consulted_wisdom = false;
  std::optional<WisdomKey> wisdom_key;
};

// Per table.
struct Tuning {
  // Per operation: whether its choice may be tuned (tuning on, the
  // structure an intra-communicator's, no override, several candidates).
  std::array<bool, kOperationCount> allowed{};
  std::array<BlockingTuning, kOperationCount> blocking{};
  // What persistent requests decided, the latest last (for ortho::explain;
  // shared with the requests, which may outlive this table).
  std::shared_ptr<std::vector<Tuned>> persistent;
  // The communicator's structure as the wisdom file keys it, once agreed.
  std::optional<std::uint64_t> digest;
};

// The candidates of `operation` in `mode` on `table` (its choice's
// algorithms in step order, the measured ones, the other priced ones; at
// most kMostCandidates).
std::vector<Algorithm> tuning_candidates(const Table& table,
                                         Operation operation,
                                         classic::Mode mode);

// Sets table.tuning.allowed from the table's choices.
void allow_tuning(Table& table);

// The latest tuning of `operation` in `mode` on `table` whose band holds
// `bytes`, or null (also where the operation may not be tuned: an
// override, or tuning off).
const Tuned* tuned_for(const Table& table, Operation operation,
                       classic::Mode mode, std::size_t bytes);

// Runs `call` (blocking or persistent) on a table whose choice of its
// operation may be tuned, where tuning decides: while it measures, and
// after, in the band measured; nullopt where the model's choice runs it.
// Collective where the processes agree.
std::optional<classic::Request> run_tuned(const classic::Comm& comm,
                                          const Table& table, const Call& call);

inline constexpr std::string_view kBarrierClockName = "(barrier)";

// For tests: replaces each measured time of a run of `algorithm` with
// what `clock` returns for it, and of a turn's barrier with what it
// returns for kBarrierClockName (null: the measured times again).
void set_tuning_clock_for_testing(
    std::function<double(std::string_view algorithm, double seconds)> clock);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_TUNING_H_
