#include "ortho/algorithms/combining/combining_plans.h"

#include "classic/base/datatype_layout.h"

namespace ortho::algorithms::combining_plans {

Layout layout_of(Elements send, Elements recv, const char* function) {
  const classic::DatatypeLayout s =
      classic::datatype_layout(send.datatype, function);
  const classic::DatatypeLayout r =
      classic::datatype_layout(recv.datatype, function);
  const MPI_Aint span =
      recv.count == 0 ? 0 : (recv.count - 1) * r.extent + r.true_extent;
  return {.send = send,
          .recv = recv,
          .send_stride = send.count * s.extent,
          .recv_stride = recv.count * r.extent,
          .temp_stride = (span + 15) / 16 * 16,
          .temp_shift = -r.true_lower_bound,
          .block_bytes = static_cast<std::size_t>(recv.count * r.size),
          .recv_blocks = {},
          .send_blocks = {},
          .temp_blocks = {}};
}

}  // namespace ortho::algorithms::combining_plans
