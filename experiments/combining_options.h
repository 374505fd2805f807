// combining_benchmark's own flags (--iterations, --calls, --csv, --blocks,
// --started_bytes), taken out of argv before benchmark::Initialize sees it.
#ifndef ORTHOCOMM_EXPERIMENTS_COMBINING_OPTIONS_H_
#define ORTHOCOMM_EXPERIMENTS_COMBINING_OPTIONS_H_

#include <string>
#include <vector>

namespace experiments::combining {

struct Options {
  int iterations = 6;  // a multiple of 6 puts every variant in every place
  int calls = 10;      // calls per batch
  std::string csv;     // --csv=path: rank 0 writes the rows there
  // --blocks=B,B,...: block sizes in bytes (positive multiples of 4: blocks
  // are ints).
  std::vector<int> block_bytes{4, 40, 400, 4000, 40000};
};

// Takes this program's flags out of argv into `options` (--started_bytes
// goes to classic's executor at once); the first malformed one's message,
// or "" where all are well formed.
std::string parse_options(int& argc, char** argv, Options& options);

}  // namespace experiments::combining

#endif  // ORTHOCOMM_EXPERIMENTS_COMBINING_OPTIONS_H_
