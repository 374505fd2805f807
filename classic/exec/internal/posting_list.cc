#include "classic/exec/internal/posting_list.h"

#include <memory>

#include "classic/base/constants.h"

namespace classic::internal {

const PostingList& postings_of(const Plan& plan) {
  if (const auto& made = plan.executor_cache.postings) return *made;
  auto list = std::make_shared<PostingList>();
  list->rounds.resize(plan.rounds.size());
  const auto flatten = [&](const std::vector<Plan::Message>& messages,
                           std::vector<PostingList::Posting>& out) {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const Plan::Message& message = messages[i];
      if (message.blocks.size() > 1) list->several_blocks = true;
      if (message.peer == proc_null) continue;
      PostingList::Posting posting;
      posting.peer = message.peer;
      posting.group = message.group;
      posting.tag = message.tag;
      posting.message = static_cast<std::uint32_t>(i);
      posting.single = message.blocks.size() == 1;
      if (posting.single) {
        const Plan::Block& block = message.blocks.front();
        posting.space = block.space;
        posting.displacement = block.displacement;
        posting.count = block.count;
        posting.datatype = block.datatype;
      } else if (message.blocks.empty()) {
        posting.single = true;  // an empty message: nothing at null
        posting.datatype = MPI_BYTE;
        posting.space = Plan::Space::scratch;
      }
      out.push_back(posting);
    }
  };
  for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
    PostingList::Round& round = list->rounds[r];
    flatten(plan.rounds[r].receives, round.receives);
    flatten(plan.rounds[r].sends, round.sends);
    round.first = list->count;
    list->count += round.receives.size() + round.sends.size();
  }
  plan.executor_cache.postings = list;
  return *list;
}

}  // namespace classic::internal
