// The simulator's machines are ortho's machine files
// (ortho/internal/machine_file.h: the format, the parser and its errors),
// so that a file the simulator was validated with is the file ortho's cost
// models read from ORTHO_MACHINE.
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_MACHINE_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_MACHINE_H_

#include "ortho/internal/machine_file.h"

namespace simulate {

using ortho::internal::LinkPrices;
using ortho::internal::load_machine;
using ortho::internal::Machine;
using ortho::internal::machine_file_text;
using ortho::internal::MachineFileError;
using ortho::internal::parse_machine;

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_MACHINE_H_
