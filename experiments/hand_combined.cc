#include "experiments/hand_combined.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>

#include "stencils/message_split.h"

namespace experiments {

using stencils::Collective;
using stencils::Location;
using stencils::SlotKind;

HandCombined::HandCombined(MPI_Comm comm, const naming::Geometry& geometry,
                           int rank, const stencils::Stencil& stencil,
                           Collective collective, const int* send, int* recv,
                           int ints, std::size_t eager_bytes, Posting posting)
    : send_(send),
      recv_(recv),
      ints_(ints),
      eager_bytes_(eager_bytes),
      gather_(collective == Collective::allgather),
      posting_(posting) {
  MPI_Comm_dup(comm, &comm_);
  if (gather_) {
    build(geometry, rank,
          stencils::allgather_schedule(geometry, stencil, stencil));
  } else {
    build(geometry, rank,
          stencils::alltoall_schedule(geometry, stencil, stencil));
  }
}

HandCombined::~HandCombined() {
  for (Round& round : rounds_) {
    for (MPI_Request& request : round.requests) {
      if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
    }
    for (const std::vector<Transfer>* list : {&round.receives, &round.sends}) {
      for (Transfer transfer : *list) MPI_Type_free(&transfer.datatype);
    }
  }
  MPI_Comm_free(&comm_);
}

template <Collective kind>
void HandCombined::build(const naming::Geometry& geometry, int rank,
                         const stencils::Schedule<kind>& schedule) {
  temp_.assign(static_cast<std::size_t>(schedule.temp_slots) *
                   static_cast<std::size_t>(ints_),
               0);
  for (const stencils::Round& step : schedule.rounds) {
    Round& round = rounds_.emplace_back();
    for (std::size_t m = 0; m < step.messages.size(); ++m) {
      const stencils::Message& message = step.messages[m];
      std::vector<int> back(message.hop.size());
      std::transform(message.hop.begin(), message.hop.end(), back.begin(),
                     [](int h) { return -h; });
      std::vector<int*> from;
      std::vector<int*> to;
      for (const stencils::BlockMove& move : message.moves) {
        from.push_back(address(move.from));
        to.push_back(address(move.to));
      }
      // Where the eager limit splits the message, its first part keeps the
      // message's index as tag and the second takes the index after the
      // round's last.
      const std::size_t first =
          static_cast<std::size_t>(stencils::first_part_blocks(
              static_cast<int>(from.size()),
              sizeof(int) * static_cast<std::size_t>(ints_), eager_bytes_));
      std::vector<std::pair<std::size_t, std::size_t>> parts{{0, first}};
      if (first < from.size()) parts.emplace_back(first, from.size());
      const int to_rank = geometry.relative_rank(rank, message.hop);
      const int from_rank = geometry.relative_rank(rank, back);
      for (std::size_t p = 0; p < parts.size(); ++p) {
        const auto [begin, end] = parts[p];
        const auto tag =
            static_cast<int>(p == 0 ? m : step.messages.size() + m);
        const std::size_t length = end - begin;
        round.sends.push_back(
            {to_rank, tag,
             datatype_of(std::span(from).subspan(begin, length))});
        round.receives.push_back(
            {from_rank, tag,
             datatype_of(std::span(to).subspan(begin, length))});
        ++messages_;
      }
    }
    if (posting_ == Posting::persistent) {
      for (const Transfer& t : round.receives) {
        MPI_Recv_init(MPI_BOTTOM, 1, t.datatype, t.peer, t.tag, comm_,
                      &round.requests.emplace_back());
      }
      for (const Transfer& t : round.sends) {
        MPI_Send_init(MPI_BOTTOM, 1, t.datatype, t.peer, t.tag, comm_,
                      &round.requests.emplace_back());
      }
    } else {
      round.requests.assign(round.receives.size() + round.sends.size(),
                            MPI_REQUEST_NULL);
    }
  }
  for (const stencils::BlockMove& move : schedule.local_copies) {
    copies_.push_back({address(move.from), address(move.to)});
  }
}

int* HandCombined::address(const Location& location) {
  const auto block = static_cast<std::ptrdiff_t>(location.index) *
                     static_cast<std::ptrdiff_t>(ints_);
  switch (location.kind) {
    case SlotKind::send:
      // The schedule reads the send buffer only: the cast lets one
      // datatype builder serve both directions.
      return const_cast<int*>(send_) + (gather_ ? 0 : block);
    case SlotKind::receive:
      return recv_ + block;
    case SlotKind::temp:
      break;
  }
  return temp_.data() + block;
}

MPI_Datatype HandCombined::datatype_of(std::span<int* const> blocks) const {
  const auto count = static_cast<int>(blocks.size());
  std::vector<int> lengths(blocks.size(), ints_);
  std::vector<MPI_Aint> addresses(blocks.size());
  std::vector<MPI_Datatype> types(blocks.size(), MPI_INT);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    MPI_Get_address(blocks[b], &addresses[b]);
  }
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  MPI_Type_create_struct(count, lengths.data(), addresses.data(), types.data(),
                         &datatype);
  MPI_Type_commit(&datatype);
  return datatype;
}

void HandCombined::run() {
  for (Round& round : rounds_) {
    if (posting_ == Posting::persistent) {
      MPI_Startall(static_cast<int>(round.requests.size()),
                   round.requests.data());
    } else {
      std::size_t r = 0;
      for (const Transfer& t : round.receives) {
        MPI_Irecv(MPI_BOTTOM, 1, t.datatype, t.peer, t.tag, comm_,
                  &round.requests[r++]);
      }
      for (const Transfer& t : round.sends) {
        MPI_Isend(MPI_BOTTOM, 1, t.datatype, t.peer, t.tag, comm_,
                  &round.requests[r++]);
      }
    }
    MPI_Waitall(static_cast<int>(round.requests.size()), round.requests.data(),
                MPI_STATUSES_IGNORE);
  }
  for (const Copy& copy : copies_) {
    std::copy_n(copy.from, ints_, copy.to);
  }
}

}  // namespace experiments
