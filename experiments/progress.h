// A no-progress watchdog for the experiment programs. Each process says
// where it is with progress::at(variant, operation, iteration) before every
// step that waits on other processes; a thread started by progress::start()
// ends the process when nothing has moved for ORTHOCOMM_WATCHDOG_S seconds
// (default 120; 0 turns it off), after printing one line on stderr:
//   watchdog: rank R of P: no progress for N s: variant V, iteration I, in OP
// and exits with status 124. A run that hangs on some processes so says, on
// every process, which variant, iteration and operation each waits in,
// within seconds of the limit, instead of sitting until mpirun's timeout.
#ifndef ORTHOCOMM_EXPERIMENTS_PROGRESS_H_
#define ORTHOCOMM_EXPERIMENTS_PROGRESS_H_

#include <string_view>

namespace progress {

// Starts the watchdog of this process (rank `rank` of `size` in the
// world); later calls do nothing. Prints an error and uses the default for
// an ORTHOCOMM_WATCHDOG_S that is no number of seconds.
void start(int rank, int size);

// This process now runs `operation` of `variant` at `iteration` (the
// strings are copied, truncated to 95 bytes). Cheap: a lock and a copy.
void at(std::string_view variant, std::string_view operation, int iteration);

}  // namespace progress

#endif  // ORTHOCOMM_EXPERIMENTS_PROGRESS_H_
