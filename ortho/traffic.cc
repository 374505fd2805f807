#include "ortho/traffic.h"

#include "ortho/algorithms/registry.h"
#include "ortho/internal/table.h"

namespace ortho {

// Each algorithm counts its own traffic (Registration::traffic): this
// function knows none by name.
std::optional<Traffic> traffic(const classic::Comm& comm, Operation operation,
                               std::string_view algorithm,
                               std::size_t block_bytes, classic::Mode mode) {
  const Table& table = internal::table_of(comm, "ortho::traffic");
  if (table.structure != Structure::directed_graph) return std::nullopt;
  for (const algorithms::Registration* registration : algorithms::registry()) {
    if (registration->algorithm.name == algorithm &&
        registration->traffic != nullptr) {
      return registration->traffic(comm, table, operation, block_bytes, mode);
    }
  }
  return std::nullopt;
}

}  // namespace ortho
