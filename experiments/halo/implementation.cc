#include "experiments/halo/implementation.h"

namespace halo {
namespace {

std::string_view algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::direct:
      return "-direct";
    case Algorithm::combining:
      return "-combining";
    case Algorithm::selected:
      break;
  }
  return "-selected";
}

}  // namespace

std::string name(const Implementation& implementation) {
  std::string text =
      implementation.library == Library::openmpi ? "openmpi" : "ortho";
  if (implementation.library == Library::ortho) {
    text += algorithm_name(implementation.algorithm);
  }
  if (implementation.mode == Mode::persistent) text += "-persistent";
  return text;
}

std::vector<Implementation> all_implementations() {
  std::vector<Implementation> all;
  for (const Mode mode : {Mode::blocking, Mode::persistent}) {
    all.push_back({Library::openmpi, mode, Algorithm::selected});
  }
  for (const Algorithm algorithm :
       {Algorithm::direct, Algorithm::combining, Algorithm::selected}) {
    for (const Mode mode : {Mode::blocking, Mode::persistent}) {
      all.push_back({Library::ortho, mode, algorithm});
    }
  }
  return all;
}

std::optional<Implementation> implementation_named(std::string_view text) {
  for (const Implementation& implementation : all_implementations()) {
    if (name(implementation) == text) return implementation;
  }
  return std::nullopt;
}

}  // namespace halo
