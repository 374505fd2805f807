// classic::dims_create: MPI_DIMS_CREATE (MPI-1.1 section 6.5.2), MPI-free,
// returning the provably most balanced grid for every nnodes up to 2^31 - 1.
#ifndef ORTHOCOMM_CLASSIC_TOPOLOGY_DIMS_CREATE_H_
#define ORTHOCOMM_CLASSIC_TOPOLOGY_DIMS_CREATE_H_

#include <span>
#include <vector>

namespace classic {

// Returns a copy of `dims` whose free entries (0) are filled in so that the
// product of all entries is `nnodes`. Positive entries are fixed and returned
// unchanged; dims.size() is MPI's ndims. Local: no communication.
//
// "The dimensions are set to be as close to each other as possible" is made
// precise as follows. Let m = nnodes / (product of the fixed entries) and let
// k be the number of free entries. The candidates are the non-increasing
// k-tuples f_1 >= f_2 >= ... >= f_k >= 1 with f_1 * ... * f_k = m. Among
// them dims_create returns the one that
//   1. minimises the spread f_1 - f_k (largest minus smallest free
//      dimension), the measure of Träff and Luna's "Fast(er) and simple
//      MPI_Dims_create" and of MPICH's dims tests, and then
//   2. among equal spreads, is lexicographically smallest (the smallest
//      largest dimension, then the smallest second largest, ...),
// and writes f_1, ..., f_k into the free entries in order of position, so the
// entries set by the call are non-increasing as the standard requires. The
// answer is unique. Only the free entries are balanced against each other;
// fixed entries are the caller's choice and do not count in the spread.
// Example: 72 in 2 dimensions gives (9, 8) (Open MPI 4.1 gives (12, 6));
// 4620 in 3 dimensions gives (22, 15, 14), spread 8, not (21, 20, 11);
// 360 in 3 dimensions gives (9, 8, 5), not (10, 6, 6) (both spread 4).
//
// Edge cases: with no free entry (including ndims = 0, which MPI-4 allows)
// the fixed entries must multiply to exactly nnodes; nnodes = 1 with ndims =
// 0 returns an empty vector. With k at least the number of prime factors of
// m (counted with multiplicity) the answer is those primes, largest first,
// padded with 1s.
//
// Errors (classic::Error):
//   ErrorClass::arg   nnodes < 1 (no grid of positive dimensions has fewer
//                     than one node; Open MPI reports MPI_ERR_DIMS here,
//                     MPICH MPI_ERR_ARG);
//   ErrorClass::dims  an entry of dims is negative (erroneous by the
//                     standard); nnodes is not a multiple of the product of
//                     the fixed entries (the standard's error); or no entry is
//                     free and the fixed entries do not multiply to nnodes.
//
// Cost: trial division of m (about 15,000 trial divisors for a prime near
// 2^31) plus a branch-and-bound search over the divisors of m; on a 2.25 GHz
// core at most ~0.15 ms over 6,000 random and all 7-smooth m < 2^31 with
// ndims up to 31; ~50 us for 2^31 - 1 (experiments/dims_create_benchmark).
std::vector<int> dims_create(int nnodes, std::span<const int> dims);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_TOPOLOGY_DIMS_CREATE_H_
