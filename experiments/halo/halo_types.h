// Blocked stencil grids: Figure 1's derived datatypes ROW, COL and COR over
// a local array with a halo of one cell, and the alltoallw arguments
// (counts, byte displacements, datatypes) of a process's neighbourhood.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_HALO_TYPES_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_HALO_TYPES_H_

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "experiments/halo/decomposition.h"

namespace halo {

// The three committed datatypes for an interior of rows x columns cells of
// `element` in a row-major (rows + 2) x (columns + 2) array: ROW a run of
// `columns` elements (MPI_Type_contiguous), COL `rows` elements one array
// row apart (MPI_Type_vector), COR the element itself. Freed on
// destruction.
class HaloTypes {
 public:
  HaloTypes(int rows, int columns, MPI_Datatype element);
  ~HaloTypes();
  HaloTypes(const HaloTypes&) = delete;
  HaloTypes& operator=(const HaloTypes&) = delete;

  MPI_Datatype of(Piece piece) const;
  int element_size() const { return element_size_; }

 private:
  MPI_Datatype element_;
  MPI_Datatype row_ = MPI_DATATYPE_NULL;
  MPI_Datatype column_ = MPI_DATATYPE_NULL;
  int element_size_ = 0;
};

// Figure 1's arrays: one block of count 1 per neighbour, at byte
// displacements from the start of the local array (send and receive buffer
// are the same array: edges go out, halos come in).
struct AlltoallwArgs {
  std::vector<int> send_counts;
  std::vector<MPI_Aint> send_displs;
  std::vector<MPI_Datatype> send_types;
  std::vector<int> recv_counts;
  std::vector<MPI_Aint> recv_displs;
  std::vector<MPI_Datatype> recv_types;
  // What one exchange sends from this process, if each block is one
  // message: messages (out-neighbours) and bytes.
  int direct_messages = 0;
  std::int64_t direct_bytes = 0;
};

AlltoallwArgs alltoallw_args(const Neighbours& neighbours,
                             const HaloTypes& types, int rows, int columns);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_HALO_TYPES_H_
