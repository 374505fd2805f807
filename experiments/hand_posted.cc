#include "experiments/hand_posted.h"

#include <cstddef>
#include <utility>

namespace experiments {
namespace {

constexpr int kTag = 0;

const char* at(const void* base, MPI_Aint displacement) {
  return static_cast<const char*>(base) + displacement;
}
char* at(void* base, MPI_Aint displacement) {
  return static_cast<char*>(base) + displacement;
}

}  // namespace

HandPosted::HandPosted(MPI_Comm comm, std::span<const int> sources,
                       std::span<const int> destinations,
                       HandBlocks<const void*> sends,
                       HandBlocks<void*> receives)
    : sources_(sources.begin(), sources.end()),
      destinations_(destinations.begin(), destinations.end()),
      sends_(std::move(sends)),
      receives_(std::move(receives)) {
  MPI_Comm_dup(comm, &comm_);
  posted_.resize(sources_.size() + destinations_.size());
  persistent_.resize(posted_.size());
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    MPI_Recv_init(at(receives_.base, receives_.displacements[i]),
                  receives_.count, receives_.datatype, sources_[i], kTag, comm_,
                  &persistent_[i]);
  }
  const std::size_t first_send = sources_.size();
  for (std::size_t i = 0; i < destinations_.size(); ++i) {
    MPI_Send_init(at(sends_.base, sends_.displacements[i]), sends_.count,
                  sends_.datatype, destinations_[i], kTag, comm_,
                  &persistent_[first_send + i]);
  }
}

HandPosted::~HandPosted() {
  for (MPI_Request& request : persistent_) MPI_Request_free(&request);
  MPI_Comm_free(&comm_);
}

void HandPosted::run() {
  std::size_t k = 0;
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    MPI_Irecv(at(receives_.base, receives_.displacements[i]), receives_.count,
              receives_.datatype, sources_[i], kTag, comm_, &posted_[k++]);
  }
  for (std::size_t i = 0; i < destinations_.size(); ++i) {
    MPI_Isend(at(sends_.base, sends_.displacements[i]), sends_.count,
              sends_.datatype, destinations_[i], kTag, comm_, &posted_[k++]);
  }
  MPI_Waitall(static_cast<int>(k), posted_.data(), MPI_STATUSES_IGNORE);
}

void HandPosted::start_and_wait() {
  const auto n = static_cast<int>(persistent_.size());
  MPI_Startall(n, persistent_.data());
  MPI_Waitall(n, persistent_.data(), MPI_STATUSES_IGNORE);
}

}  // namespace experiments
