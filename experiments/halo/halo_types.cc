#include "experiments/halo/halo_types.h"

namespace halo {

HaloTypes::HaloTypes(int rows, int columns, MPI_Datatype element)
    : element_(element) {
  MPI_Type_size(element, &element_size_);
  MPI_Type_contiguous(columns, element, &row_);
  MPI_Type_commit(&row_);
  MPI_Type_vector(rows, 1, columns + 2, element, &column_);
  MPI_Type_commit(&column_);
}

HaloTypes::~HaloTypes() {
  MPI_Type_free(&row_);
  MPI_Type_free(&column_);
}

MPI_Datatype HaloTypes::of(Piece piece) const {
  switch (piece) {
    case Piece::row:
      return row_;
    case Piece::column:
      return column_;
    case Piece::corner:
      break;
  }
  return element_;
}

namespace {

int type_size(MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  return size;
}

}  // namespace

AlltoallwArgs alltoallw_args(const Neighbours& neighbours,
                             const HaloTypes& types, int rows, int columns) {
  AlltoallwArgs args;
  const MPI_Aint element = types.element_size();
  for (const int i : neighbours.destination_offsets) {
    const Region region = edge(rows, columns, moore(i));
    args.send_counts.push_back(1);
    args.send_displs.push_back(region.offset * element);
    args.send_types.push_back(types.of(region.piece));
    args.direct_messages += 1;
    args.direct_bytes += type_size(types.of(region.piece));
  }
  for (const int i : neighbours.source_offsets) {
    const Offset out = moore(i);
    const Region region = halo_region(rows, columns, {-out.row, -out.column});
    args.recv_counts.push_back(1);
    args.recv_displs.push_back(region.offset * element);
    args.recv_types.push_back(types.of(region.piece));
  }
  return args;
}

}  // namespace halo
