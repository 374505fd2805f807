// stencils::Stencil: a list of d-dimensional relative offsets (a process
// neighbourhood described geometrically), stored flat as MPI-style code has it.
#ifndef ORTHOCOMM_STENCILS_STENCIL_H_
#define ORTHOCOMM_STENCILS_STENCIL_H_

#include <span>
#include <string>
#include <vector>

namespace stencils {

// t offsets of ndims ints each; offset i occupies flat()[i*ndims, (i+1)*ndims).
// The order is meaningful (it is the neighbour order a user passes to
// dist_graph_create_adjacent) and repeats are allowed (a multiset).
//
// ndims == 0 is allowed: every offset is then the empty vector, so the size
// is kept explicitly rather than derived from the flat length.
class Stencil {
 public:
  // An empty stencil of `ndims` dimensions. Throws classic::Error (dims) if
  // ndims < 0.
  explicit Stencil(int ndims);
  // Wraps a flat list. Throws dims if ndims < 0, count if flat.size() is not
  // a multiple of ndims (or, for ndims == 0, not empty; use push_back to
  // build a 0-dimensional stencil), and count if there are more than INT_MAX
  // offsets.
  Stencil(int ndims, std::vector<int> flat);

  int ndims() const { return ndims_; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Offset i; throws classic::Error (arg) unless 0 <= i < size().
  std::span<const int> offset(int i) const;
  std::span<const int> flat() const { return flat_; }

  // Appends one offset; throws arg if offset.size() != ndims().
  void push_back(std::span<const int> offset);

  friend bool operator==(const Stencil& a, const Stencil& b) = default;

 private:
  int ndims_;
  int size_ = 0;
  std::vector<int> flat_;
};

// "(1,-2,0)": an offset as error messages and reports print it.
std::string offset_string(std::span<const int> offset);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_STENCIL_H_
