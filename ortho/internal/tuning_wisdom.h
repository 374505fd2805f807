// Tuning's use of the wisdom file (internal/wisdom.h): the processes agree
// on the key (the communicator's structure, the size band), process 0 reads
// the file and hands out what it found, so that every process runs the
// same winner even where the file differs between hosts; and process 0
// adds what tuning measured.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_TUNING_WISDOM_H_
#define ORTHOCOMM_ORTHO_INTERNAL_TUNING_WISDOM_H_

#include <optional>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/tuning.h"
#include "ortho/internal/wisdom.h"
#include "ortho/operation.h"

namespace ortho {
struct Table;
}  // namespace ortho

namespace ortho::internal {

// ORTHO_WISDOM's path, empty where it is not set.
std::string wisdom_path();

// What a tuning found in the wisdom file.
struct WisdomLookup {
  WisdomKey key;               // the band the processes' largest
  std::optional<Tuned> found;  // from_wisdom; nullopt: measure
};

// Looks up the tuning of `operation` in `mode` with `candidates`, this
// process's block in band `band`. Collective over comm (two reductions and
// a broadcast; the first lookup on a table agrees on its digest too).
WisdomLookup look_up_wisdom(const classic::Comm& comm, const Table& table,
                            Operation operation, classic::Mode mode, int band,
                            const std::vector<Algorithm>& candidates);

// Adds what tuning decided under `key` (its band replaced by the decided
// one) where `rank` (the caller's in the communicator) is 0; local.
void save_wisdom(int rank, WisdomKey key, const Tuned& tuned);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_TUNING_WISDOM_H_
