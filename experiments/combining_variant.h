// The variants combining_benchmark times at every point (Open MPI's
// neighbourhood collectives, the hand-posted floors of direct's and of
// combining's messages, ortho's algorithms forced (direct, combining and
// mpi, Open MPI's own call behind ortho's dispatch) and selected, blocking
// and persistent) and their names in the CSV and the counters.
#ifndef ORTHOCOMM_EXPERIMENTS_COMBINING_VARIANT_H_
#define ORTHOCOMM_EXPERIMENTS_COMBINING_VARIANT_H_

#include <array>
#include <cstddef>

namespace experiments::combining {

enum class Variant {
  openmpi,
  openmpi_persistent,
  raw,
  raw_persistent,
  ortho_direct,
  ortho_direct_persistent,
  ortho_combining,
  ortho_combining_persistent,
  raw_combining,  // combining's messages by hand (hand_combined.h)
  raw_combining_persistent,
  ortho_mpi,  // Open MPI's neighbourhood collective behind ortho's dispatch
  ortho_mpi_persistent,
  ortho_selected,
  ortho_selected_persistent,
};
inline constexpr int kVariantCount = 14;

inline constexpr std::array<Variant, kVariantCount> kVariants{
    Variant::openmpi,
    Variant::openmpi_persistent,
    Variant::raw,
    Variant::raw_persistent,
    Variant::ortho_direct,
    Variant::ortho_direct_persistent,
    Variant::ortho_combining,
    Variant::ortho_combining_persistent,
    Variant::raw_combining,
    Variant::raw_combining_persistent,
    Variant::ortho_mpi,
    Variant::ortho_mpi_persistent,
    Variant::ortho_selected,
    Variant::ortho_selected_persistent};

// The variant's place in per-variant arrays.
inline std::size_t index_of(Variant variant) {
  return static_cast<std::size_t>(variant);
}

// The variant's name in the CSV and in the mismatch message.
const char* name_of(Variant variant);

// The counter stem of a variant ("<stem>_us", "<stem>_ratio"): its name,
// without "ortho_" for ortho's.
const char* stem_of(Variant variant);

}  // namespace experiments::combining

#endif  // ORTHOCOMM_EXPERIMENTS_COMBINING_VARIANT_H_
