#include "experiments/halo/exchange.h"

namespace halo {

std::unique_ptr<Exchange> make_exchange(const Implementation& implementation,
                                        const GridSpec& spec) {
  if (implementation.library == Library::openmpi) {
    return make_openmpi_exchange(implementation.mode, spec);
  }
  return make_ortho_exchange(implementation.mode, implementation.algorithm,
                             spec);
}

}  // namespace halo
