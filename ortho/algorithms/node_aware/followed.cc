#include "ortho/algorithms/node_aware/followed.h"

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "classic/exec/executor.h"
#include "ortho/algorithms/checks.h"
#include "ortho/internal/exchange.h"

namespace ortho::algorithms {
namespace {

// What the request holds until it goes: the first operation's buffers and
// what the second one's plan is made from.
struct Followed {
  std::shared_ptr<const Table> table;  // keeps the routes too
  const node_routes::Routes* routes = nullptr;
  std::shared_ptr<const Exchange> blocks;
  classic::HeldDatatypes held;  // blocks' derived datatypes
  internal::KeptSizesRound round;
  std::size_t learnt = 0;  // the sizes: round.places' first ones
  classic::PlanBuffers buffers;
  // The last call's plan and the sizes it was made for, where this call
  // has its arguments.
  std::shared_ptr<const classic::Plan> kept_plan;
  std::vector<std::int64_t> kept_sizes;
  std::shared_ptr<internal::MadeLater> made;  // null: keep nothing
};

// The blocks of `call`: the last call's where it had these arguments (and
// its plan and sizes), checked and normalised otherwise; held where they
// name derived datatypes.
void take_blocks(Followed& f, const classic::Comm& comm, const Table& table,
                 const Call& call, const void* key, std::uint64_t shape,
                 const internal::LastPlan& last) {
  if (last.sized_blocks(key, shape) != nullptr) {
    f.kept_plan = last.plan;
    f.kept_sizes = last.sizes;
    Exchange held = *last.blocks;
    f.held.hold(held.send, call.function());
    f.held.hold(held.recv, call.function());
    if (f.held.empty()) {
      f.blocks = last.blocks;
      return;
    }
    f.blocks = std::make_shared<const Exchange>(std::move(held));
    f.kept_plan = nullptr;  // names the caller's handles, which may go
    return;
  }
  const Checks check(comm, call);
  Exchange blocks = normalise(table, call, check);
  f.held.hold(blocks.send, call.function());
  f.held.hold(blocks.recv, call.function());
  f.blocks = std::make_shared<const Exchange>(std::move(blocks));
}

}  // namespace

classic::Request run_followed(const classic::Comm& comm, const Table& table,
                              const Call& call, const void* key,
                              std::uint64_t shape, internal::LastPlan& last,
                              const node_routes::Routes& routes,
                              SizesOf sizes_of) {
  const char* function = call.function();
  if (last.made_later != nullptr) {
    // What the last such call made once its sizes had arrived (the slot's
    // algorithm's: another takes the slot only through keep()).
    const std::shared_ptr<internal::MadeLater> made =
        std::move(last.made_later);
    if (made->plan != nullptr && last.algorithm == key) {
      last.keep_sized(key, made->shape, made->plan, made->blocks, made->sizes,
                      {});
    }
  }
  auto f = std::make_shared<Followed>();
  f->table = internal::shared_table(table, function);
  f->routes = &routes;
  take_blocks(*f, comm, table, call, key, shape, last);
  f->round = sizes_round(sizes_of, routes, *f->blocks, function);
  f->learnt =
      f->blocks->recv.size() + static_cast<std::size_t>(routes.scratch_slots);
  f->buffers = {call.send.data, call.recv.data};
  if (f->held.empty()) {
    // The slot is this algorithm's from now on (LastPlans::of finds it).
    if (last.algorithm != key) (void)last.keep(key, shape, nullptr);
    f->made = std::make_shared<internal::MadeLater>();
    f->made->shape = shape;
    f->made->blocks = f->blocks;
    last.made_later = f->made;
  }
  const classic::PlanBuffers first{f->round.sent.data(),
                                   f->round.places.data()};
  return classic::execute_followed(
      comm, f->round.plan, first,
      [f, function]() -> classic::FollowingPlan {
        const auto learnt = static_cast<std::ptrdiff_t>(f->learnt);
        std::vector<std::int64_t> sizes(f->round.places.begin(),
                                        f->round.places.begin() + learnt);
        if (f->kept_plan != nullptr && sizes == f->kept_sizes) {
          return {f->kept_plan, f->buffers};
        }
        auto plan = std::make_shared<const classic::Plan>(
            data_plan(*f->routes, *f->blocks, sizes, *f->table, 0, function));
        if (f->made != nullptr) {
          f->made->plan = plan;
          f->made->sizes = std::move(sizes);
        }
        return {std::move(plan), f->buffers};
      },
      function);
}

}  // namespace ortho::algorithms
