#include "tests/ortho/native/native_testing.h"

#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "ortho/structure.h"
#include "tests/classic/testing/intercomm_testing.h"

namespace ortho_native_test {
namespace {

using classic::intercomm_testing::Sides;

Place fully_connected(std::string name, classic::Comm comm,
                      std::vector<int> members) {
  Place place;
  place.name = std::move(name);
  place.rank = comm.rank();
  place.size_a = comm.size();
  place.size_b = comm.size();
  place.world_a = members;
  place.world_b = std::move(members);
  place.comm = std::move(comm);
  return place;
}

Place bipartite(std::string name, const Sides& sides) {
  const classic::intercomm_testing::Built built =
      classic::intercomm_testing::build(sides);
  ortho::prepare(built.inter);  // collective over both sides
  Place place;
  place.name = std::move(name);
  place.comm = built.inter;
  place.bipartite = true;
  place.in_a = sides.in_a;
  place.rank = built.inter.rank();
  place.size_a = static_cast<int>(sides.a.size());
  place.size_b = static_cast<int>(sides.b.size());
  place.world_a = sides.a;
  place.world_b = sides.b;
  return place;
}

}  // namespace

std::vector<Place> fully_connected_places() {
  const int world_rank = classic::Environment::world_rank();
  const int world_size = classic::Environment::world_size();
  std::vector<int> world(at(world_size));
  std::vector<int> split;
  for (int w = 0; w < world_size; ++w) {
    world[at(w)] = w;
    if (w % 2 == world_rank % 2) split.insert(split.begin(), w);
  }
  std::vector<Place> places;
  places.push_back(fully_connected("world", classic::Comm::world(), world));
  places.push_back(fully_connected(
      "evens and odds, reversed",
      classic::Comm::world().split(world_rank % 2, -world_rank), split));
  return places;
}

std::vector<Place> bipartite_places() {
  std::vector<Place> places;
  if (classic::Environment::world_size() < 2) return places;
  places.push_back(
      bipartite("uneven halves", classic::intercomm_testing::halves()));
  places.push_back(
      bipartite("evens against odds, reversed",
                classic::intercomm_testing::interleaved_reversed()));
  return places;
}

int Root::arg(const Place& place) const {
  if (!place.bipartite || !on_side_of(place)) return rank;
  return is(place) ? classic::mpi_root : classic::proc_null;
}

Root draw_root(const Place& place, Random& shared) {
  const bool in_a = !place.bipartite || classic::testing::chance(shared, 50);
  return {in_a, classic::testing::uniform(shared, 0, place.size_of(in_a) - 1)};
}

void check_mode(Case& c, Random& local, Mode mode, Form form) {
  SCOPED_TRACE(std::string(to_string(mode)) + ", " + to_string(form) + " form");
  auto start_ortho = [&](classic::Request& request) {
    c.restore_arrays();
    request = c.run(Api::ortho, mode, form);
    c.scramble_arrays();
  };
  classic::Request request;
  if (mode == Mode::persistent) {
    c.fill(local);
    start_ortho(request);
    EXPECT_TRUE(request.is_inactive());
    for (int s = 0; s < kStarts; ++s) {
      SCOPED_TRACE("start " + std::to_string(s));
      c.fill(local);  // new contents, the same buffers
      (void)c.run(Api::classic, Mode::blocking, form);
      classic::start(request);
      EXPECT_FALSE(request.is_inactive());
      classic::wait(request);
      EXPECT_TRUE(request.is_inactive());
      c.compare();
    }
    return;
  }
  c.fill(local);
  (void)c.run(Api::classic, Mode::blocking, form);
  start_ortho(request);
  if (mode == Mode::nonblocking) {
    EXPECT_FALSE(request.is_null());
    classic::wait(request);
  }
  EXPECT_TRUE(request.is_null());
  c.compare();
}

const char* to_string(Mode mode) {
  switch (mode) {
    case Mode::nonblocking:
      return "non-blocking";
    case Mode::persistent:
      return "persistent";
    case Mode::blocking:
      break;
  }
  return "blocking";
}

const char* to_string(Form form) {
  return form == Form::typed ? "typed" : "raw";
}

}  // namespace ortho_native_test
