// The collectives of fully connected and bipartite communicators as random
// cases (native_testing.h's Case): every operation MPI defines there, with
// drawn counts (zero included), layouts with gaps, roots on either side,
// element types and ops, and ortho's in-place forms.
#ifndef ORTHOCOMM_TESTS_ORTHO_NATIVE_NATIVE_CASES_H_
#define ORTHOCOMM_TESTS_ORTHO_NATIVE_NATIVE_CASES_H_

#include <memory>
#include <vector>

#include "ortho/operation.h"
#include "tests/ortho/native/native_testing.h"

namespace ortho_native_test {

// The operations defined on fully connected communicators (all but
// allgatherw: MPI's 17) and on bipartite ones (those 17 but scan and
// exscan), in ortho's order.
std::vector<ortho::Operation> fully_connected_operations();
std::vector<ortho::Operation> bipartite_operations();

// A random case of `operation` on `place`. Draws from `shared` (the same on
// every process of the world, whatever its place) and from `local`.
std::unique_ptr<Case> make_case(ortho::Operation operation, const Place& place,
                                Random& shared, Random& local);

// The operations with an in-place typed form in ortho (gather and reduce at
// the root, scatter at the root, allreduce everywhere).
std::vector<ortho::Operation> in_place_operations();

// A random in-place case of one of them on a fully connected `place`, in
// both forms (typed: classic::in_place; raw: MPI_IN_PLACE).
std::unique_ptr<Case> make_in_place_case(ortho::Operation operation,
                                         const Place& place, Random& shared,
                                         Random& local);

}  // namespace ortho_native_test

#endif  // ORTHOCOMM_TESTS_ORTHO_NATIVE_NATIVE_CASES_H_
