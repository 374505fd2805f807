#include "tests/stencils/testing.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace stencils::testing {

std::vector<std::vector<int>> box(int ndims, int radius) {
  std::vector<std::vector<int>> result;
  std::vector<int> offset(ndims, -radius);
  while (true) {
    result.push_back(offset);
    int k = ndims - 1;
    while (k >= 0 && offset[k] == radius) offset[k--] = -radius;
    if (k < 0) return result;
    ++offset[k];
  }
}

int l1(std::span<const int> offset) {
  int sum = 0;
  for (int x : offset) sum += std::abs(x);
  return sum;
}

int linf(std::span<const int> offset) {
  int most = 0;
  for (int x : offset) most = std::max(most, std::abs(x));
  return most;
}

std::vector<std::vector<int>> to_vectors(const Stencil& stencil) {
  std::vector<std::vector<int>> result;
  for (int i = 0; i < stencil.size(); ++i) {
    const auto offset = stencil.offset(i);
    result.emplace_back(offset.begin(), offset.end());
  }
  return result;
}

Stencil from_vectors(int ndims, const std::vector<std::vector<int>>& offsets) {
  Stencil stencil(ndims);
  for (const auto& offset : offsets) stencil.push_back(offset);
  return stencil;
}

Stencil random_stencil(std::mt19937& rng, int ndims, int radius, int count) {
  std::vector<std::vector<int>> pool = box(ndims, radius);
  const bool allow_zero = rng() % 4 == 0;
  if (!allow_zero) {
    std::erase(pool, std::vector<int>(ndims, 0));
  }
  std::shuffle(pool.begin(), pool.end(), rng);
  pool.resize(std::min<std::size_t>(pool.size(), count));
  if (!pool.empty() && rng() % 4 == 0) {
    pool.insert(pool.begin() + rng() % (pool.size() + 1),
                pool[rng() % pool.size()]);
  }
  return from_vectors(ndims, pool);
}

Stencil random_sources(std::mt19937& rng, const naming::Geometry& geometry,
                       const Stencil& targets) {
  std::vector<std::vector<int>> sources = to_vectors(targets);
  for (auto& offset : sources) {
    for (std::size_t k = 0; k < offset.size(); ++k) {
      offset[k] = -offset[k];
      if (geometry.periodic(static_cast<int>(k)) && rng() % 3 == 0) {
        offset[k] += geometry.dims()[k] * (static_cast<int>(rng() % 5) - 2);
      }
    }
  }
  std::shuffle(sources.begin(), sources.end(), rng);
  return from_vectors(targets.ndims(), sources);
}

naming::Geometry grid(std::vector<int> dims, std::vector<bool> periods) {
  auto flags = std::make_unique<bool[]>(periods.size());
  std::copy(periods.begin(), periods.end(), flags.get());
  return naming::Geometry(dims,
                          std::span<const bool>(flags.get(), periods.size()),
                          naming::Order::row_major);
}

naming::Geometry torus(std::vector<int> dims) {
  const std::size_t d = dims.size();
  return grid(std::move(dims), std::vector<bool>(d, true));
}

naming::Geometry mesh(std::vector<int> dims) {
  const std::size_t d = dims.size();
  return grid(std::move(dims), std::vector<bool>(d, false));
}

}  // namespace stencils::testing
