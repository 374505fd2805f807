// "pairwise": alltoall on a fully connected communicator in p - 1 rounds.
// In round r each process sends its block for rank + r and receives the
// block of rank - r (mod p), so every process has one message in flight
// each way per round; its own block is a local copy. The classic choice
// for large blocks (one pair of messages at a time instead of p - 1 at
// once, at the price of p - 1 dependent rounds). Offered for alltoall in
// every mode and form, never chosen by default.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "classic/base/datatype_layout.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/registry.h"

namespace ortho::algorithms {

extern const Registration kPairwise;  // at the end of this file

namespace {

using classic::Plan;

// The call's counts, the typed spans' split into one block per process.
Call with_counts(const Call& call, int size, const Checks& check) {
  if (call.form == Form::raw) return call;
  Call raw = call;
  raw.form = Form::raw;
  const auto blocks = static_cast<std::size_t>(size);
  raw.send.count = check.per_block(call.send.elements, blocks, "send");
  raw.recv.count = check.per_block(call.recv.elements, blocks, "recv");
  return raw;
}

Plan pairwise_plan(int rank, int size, const Call& c) {
  const MPI_Aint send_stride =
      c.send.count *
      classic::datatype_layout(c.send.datatype, c.function()).extent;
  const MPI_Aint recv_stride =
      c.recv.count *
      classic::datatype_layout(c.recv.datatype, c.function()).extent;
  const auto send_block = [&](int to) {
    return Plan::Block{Plan::Space::send, to * send_stride, c.send.count,
                       c.send.datatype};
  };
  const auto recv_block = [&](int from) {
    return Plan::Block{Plan::Space::recv, from * recv_stride, c.recv.count,
                       c.recv.datatype};
  };
  Plan plan;
  plan.rounds.resize(static_cast<std::size_t>(size));
  // Round 0: the own block, which needs no message.
  Plan::Local own;
  own.kind = Plan::Local::Kind::copy;
  own.from = send_block(rank);
  own.to = recv_block(rank);
  plan.rounds[0].local.push_back(own);
  for (int r = 1; r < size; ++r) {
    Plan::Round& round = plan.rounds[static_cast<std::size_t>(r)];
    const int to = (rank + r) % size;
    const int from = (rank - r + size) % size;
    Plan::Message receive;
    receive.peer = from;
    receive.blocks = {recv_block(from)};
    round.receives.push_back(std::move(receive));
    Plan::Message send;
    send.peer = to;
    send.blocks = {send_block(to)};
    round.sends.push_back(std::move(send));
  }
  return plan;
}

classic::Request run(const classic::Comm& comm, const Table& /*table*/,
                     const Call& call) {
  const Checks check(comm, call);
  const int size = comm.size();
  const Call c = with_counts(call, size, check);
  check.elements(c.send.count, c.send.datatype, "send_count", "send_type");
  check.elements(c.recv.count, c.recv.datatype, "recv_count", "recv_type");
  check.not_in_place(c.send.data, "send", "(pairwise has no in-place form)");
  check.not_in_place(c.recv.data, "recv", "(pairwise has no in-place form)");
  auto plan = std::make_shared<const Plan>(pairwise_plan(comm.rank(), size, c));
  return classic::execute(comm, std::move(plan), {c.send.data, c.recv.data},
                          c.mode, c.function());
}

// Offered for overrides, not priced.
void offer(Table& table) {
  if (table.structure != Structure::fully_connected) return;
  table.offer(Operation::alltoall, kPairwise.algorithm);
}

}  // namespace

extern constinit const Registration kPairwise{.algorithm = {"pairwise", &run},
                                              .offer = &offer};

}  // namespace ortho::algorithms
