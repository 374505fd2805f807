// naming::Geometry: the MPI-free core of Cartesian naming (paper section 3,
// Listings 3-4): a d-dimensional grid and its rank <-> coordinate maps.
#ifndef ORTHOCOMM_NAMING_GEOMETRY_H_
#define ORTHOCOMM_NAMING_GEOMETRY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace naming {

// How ranks are numbered through the grid. row_major: the last dimension
// varies fastest (C order, as MPI_Cart_create). column_major: the first
// dimension varies fastest (Fortran order).
enum class Order { row_major, column_major };

// The in-rank and out-rank of a relative shift (paper: Cart_relative_shift).
struct Shift {
  int source;
  int destination;
};

// The dimension permutation, slowest- to fastest-varying, that `order` means
// for a grid of `ndims` dimensions.
std::vector<int> dimension_order_of(Order order, int ndims);

// A d-dimensional grid (mesh or torus) with a rank numbering.
//
// Conventions, shared by every member function:
// - Coordinates and offsets are always indexed by dimension: coords[i] is the
//   position along dimension i, whose extent is dims()[i]. The numbering
//   order changes only which rank a coordinate vector gets, never the layout
//   of the vector.
// - Ranks 0 .. size()-1 are named. The grid cannot know the size of the
//   communicator it names, so every rank >= size() counts as unnamed (paper:
//   "processes with a rank larger than this size will not have a name").
// - Rank-valued results are classic::proc_null where there is no process:
//   a move that leaves a non-periodic dimension, a source that is
//   classic::proc_null, or a source that is unnamed.
// - Coordinate-valued results have no "no process" value, so asking for the
//   coordinates of classic::proc_null or of an unnamed rank throws
//   classic::Error of class rank.
// - A negative rank other than classic::proc_null is always an error (rank).
// - Periodic dimensions wrap any int coordinate or offset, however large,
//   without overflow.
// - A coordinate, offset or output vector whose length is not ndims() throws
//   classic::Error of class arg; a flat list whose length is not a multiple of
//   ndims() (or does not match the output length) throws class count.
// - d == 0 is allowed: one process, rank 0, with empty coordinates.
//
// A Geometry is immutable. Copies share the periods array; moving copies, so
// a moved-from Geometry is still a valid grid.
class Geometry {
 public:
  // Throws classic::Error: dims (some dims[i] < 1, or the product of dims
  // overflows int); arg (periods.size() != dims.size(), or `order` is not an
  // Order value).
  Geometry(std::span<const int> dims, std::span<const bool> periods,
           Order order);
  // `dimension_order` lists the dimensions from slowest- to fastest-varying:
  // row_major is {0, 1, ..., d-1}, column_major is {d-1, ..., 0}. Throws as
  // above, and arg if `dimension_order` is not a permutation of 0..d-1.
  Geometry(std::span<const int> dims, std::span<const bool> periods,
           std::span<const int> dimension_order);

  Geometry(const Geometry& other) = default;
  Geometry& operator=(const Geometry& other) = default;

  int ndims() const { return static_cast<int>(dims_.size()); }
  // Number of named processes: the product of dims (1 when d == 0).
  int size() const { return size_; }
  std::span<const int> dims() const { return dims_; }
  std::span<const bool> periods() const {
    return {periods_.get(), dims_.size()};
  }
  std::span<const int> dimension_order() const { return dimension_order_; }
  // Throws dims if `dim` is not in [0, ndims()).
  bool periodic(int dim) const;

  // Paper: Cart_rank. Periodic dimensions wrap; a coordinate outside
  // [0, dims[i]) in a non-periodic dimension throws rank.
  int rank(std::span<const int> coords) const;
  // Paper: Cart_coordinates. Throws rank unless 0 <= rank < size().
  std::vector<int> coordinates(int rank) const;
  // Allocation-free form; `out` must have ndims() elements.
  void coordinates(int rank, std::span<int> out) const;

  // Paper: Cart_relative_rank. The rank at coordinates(source) + offset, or
  // proc_null (see the conventions above).
  int relative_rank(int source, std::span<const int> offset) const;
  // Paper: Cart_relative_coordinates. coordinates(dest) - coordinates(source);
  // in periodic dimensions canonicalised as canonical_offset() does, so every
  // process computes the same offset for the same relative position. Throws
  // rank if source or dest is proc_null or unnamed.
  std::vector<int> relative_coordinates(int source, int dest) const;
  void relative_coordinates(int source, int dest, std::span<int> out) const;
  // In each periodic dimension of extent n, the representative r of
  // offset[i] modulo n with -floor((n-1)/2) <= r <= floor(n/2) (for n even
  // the half-way offset is +n/2). Non-periodic components are unchanged.
  std::vector<int> canonical_offset(std::span<const int> offset) const;
  void canonical_offset(std::span<const int> offset, std::span<int> out) const;
  // Paper: Cart_relative_shift. {relative_rank(rank, -offset),
  // relative_rank(rank, offset)}; -offset is formed without overflow.
  Shift relative_shift(int rank, std::span<const int> offset) const;

  // Paper: Cart_allranks. `flat_coords` holds n = flat_coords.size() / d
  // coordinate vectors one after the other; each is mapped as rank() maps it
  // (so an off-grid coordinate throws rank). With d == 0 the list must be
  // empty; use the output form to map n empty vectors.
  std::vector<int> allranks(std::span<const int> flat_coords) const;
  // Allocation-free form: n = ranks.size(), flat_coords.size() must be n * d.
  void allranks(std::span<const int> flat_coords, std::span<int> ranks) const;
  // Paper: Cart_allranks_relative. relative_rank(source, offset) for each of
  // the n offset vectors in `flat_offsets`.
  std::vector<int> allranks_relative(int source,
                                     std::span<const int> flat_offsets) const;
  void allranks_relative(int source, std::span<const int> flat_offsets,
                         std::span<int> ranks) const;

  // Same dims, periods and dimension order.
  friend bool operator==(const Geometry& a, const Geometry& b);

 private:
  // Lays out a grid whose arguments have been validated.
  void build(std::span<const int> dims, std::span<const bool> periods,
             std::span<const int> dimension_order);
  // rank() of one coordinate vector; `name` and `first` place it in the
  // caller's argument for error messages.
  int rank_of(std::span<const int> coords, const char* name, std::size_t first,
              const char* function) const;
  // The rank at coordinates(source) + sign * offset (sign is +1 or -1), or
  // proc_null. The caller has checked offset's length.
  int moved_rank(int source, std::span<const int> offset, std::int64_t sign,
                 const char* function) const;
  // False for proc_null or an unnamed rank; throws for other negative ranks.
  bool is_named_source(int source, const char* function) const;
  void check_named(int rank, const char* name, const char* function) const;
  void check_length(std::size_t length, const char* name,
                    const char* function) const;
  // The number of vectors in a flat list; throws count if it does not divide.
  std::size_t flat_count(std::size_t flat_length, const char* name,
                         const char* function) const;
  // Throws count unless flat_length == n * ndims().
  void check_flat(std::size_t flat_length, const char* name, std::size_t n,
                  const char* function) const;
  int canonical_component(std::size_t dim, std::int64_t offset) const;

  std::vector<int> dims_;
  // std::vector<bool> cannot hand out a span<const bool>.
  std::shared_ptr<const bool[]> periods_;
  std::vector<int> dimension_order_;
  // stride_[i]: rank distance between neighbours along dimension i.
  std::vector<int> stride_;
  int size_ = 1;
};

}  // namespace naming

#endif  // ORTHOCOMM_NAMING_GEOMETRY_H_
