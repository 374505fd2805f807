// Test helpers for stencils: brute-force oracles and random neighbourhoods.
#ifndef ORTHOCOMM_TESTS_STENCILS_TESTING_H_
#define ORTHOCOMM_TESTS_STENCILS_TESTING_H_

#include <random>
#include <span>
#include <vector>

#include "naming/geometry.h"
#include "stencils/stencil.h"

namespace stencils::testing {

// Every offset of [-radius, radius]^ndims, in odometer order (last
// dimension fastest); the oracle enumeration.
std::vector<std::vector<int>> box(int ndims, int radius);

// Independent distance formulas.
int l1(std::span<const int> offset);
int linf(std::span<const int> offset);

std::vector<std::vector<int>> to_vectors(const Stencil& stencil);
Stencil from_vectors(int ndims, const std::vector<std::vector<int>>& offsets);

// `count` distinct offsets drawn from [-radius, radius]^ndims in random
// order; with probability 1/4 the zero offset is allowed, with probability
// 1/4 one offset is repeated.
Stencil random_stencil(std::mt19937& rng, int ndims, int radius, int count);

// -targets in random order; in periodic dimensions of `geometry` some
// components are shifted by a multiple of the extent (the same neighbour,
// written differently).
Stencil random_sources(std::mt19937& rng, const naming::Geometry& geometry,
                       const Stencil& targets);

naming::Geometry torus(std::vector<int> dims);
naming::Geometry mesh(std::vector<int> dims);
naming::Geometry grid(std::vector<int> dims, std::vector<bool> periods);

}  // namespace stencils::testing

#endif  // ORTHOCOMM_TESTS_STENCILS_TESTING_H_
