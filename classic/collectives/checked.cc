#include "classic/collectives/checked.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/environment_flag.h"
#include "classic/base/error.h"
#include "classic/base/internal/agreement.h"
#include "classic/base/internal/transport_error.h"
#include "classic/collectives/internal/checked_call.h"
#include "classic/collectives/internal/stall_report.h"
#include "classic/comm/internal/comm_state.h"

namespace classic {
namespace {

using Int = std::int64_t;
constexpr Int kNone = CallFacts::kNone;

bool& checked_flag() {
  static bool flag = environment_flag("ORTHO_CHECK", "classic (environment)");
  return flag;
}

thread_local int checked_above = 0;

// Predefined ops by name (their handles differ between processes), user
// ops as one kind.
constexpr Int kUserOp = 100;
constexpr std::array<const char*, 14> kOpNames = {
    "MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD", "MPI_LAND",
    "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR", "MPI_BXOR",
    "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};

Int op_code(MPI_Op op) {
  const std::array<MPI_Op, kOpNames.size()> predefined = {
      MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
      MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
      MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  const auto* found = std::find(predefined.begin(), predefined.end(), op);
  if (found != predefined.end()) return found - predefined.begin();
  return op == MPI_OP_NULL ? kNone : kUserOp;
}

// FNV-1a: the collective's name as one integer for the reduction.
Int name_code(std::string_view name) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : name) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  return static_cast<Int>(hash >> 1);
}

// "Do the processes that have this argument agree on it?": the smallest
// low and the largest high over the processes where it is not kNone.
class PresentRange {
 public:
  PresentRange(internal::Agreement& agreement, Int low, Int high)
      : low_(agreement.ask_minimum(low == kNone ? INT64_MAX : low)),
        high_(agreement.ask_minimum(high == kNone ? INT64_MAX : ~high)) {}

  bool same(const internal::Agreement& agreement) const {
    const Int smallest = agreement.minimum(low_);
    const Int complement_of_largest = agreement.minimum(high_);
    return smallest == INT64_MAX ||  // nobody has it
           smallest == ~complement_of_largest;
  }

 private:
  internal::Agreement::Question low_;
  internal::Agreement::Question high_;
};

// One process's facts as the disagreement report gathers them.
struct Record {
  Int root;
  Int op;
  Int low_bytes;
  Int high_bytes;
  std::array<char, 64> function;
};

Record record_of(const CallFacts& facts) {
  Record record{facts.root, facts.op, facts.low_bytes, facts.high_bytes, {}};
  const std::size_t length =
      std::min(facts.function.size(), record.function.size() - 1);
  std::copy_n(facts.function.data(), length, record.function.begin());
  return record;
}

// "rank 0 X, ranks 1-8 Y": each process's text, runs of equal ones.
std::string by_rank(const std::vector<std::string>& texts) {
  std::string result;
  std::size_t first = 0;
  for (std::size_t r = 1; r <= texts.size(); ++r) {
    if (r < texts.size() && texts[r] == texts[first]) continue;
    if (!result.empty()) result += ", ";
    result += r - first == 1 ? "rank " + std::to_string(first)
                             : "ranks " + std::to_string(first) + "-" +
                                   std::to_string(r - 1);
    result += " " + texts[first];
    first = r;
  }
  return result;
}

std::string op_text(Int code) {
  if (code == kNone) return "(none)";
  return code == kUserOp ? "a user op"
                         : kOpNames[static_cast<std::size_t>(code)];
}

std::string bytes_text(const Record& r) {
  if (r.low_bytes == kNone) return "(none)";
  return r.low_bytes == r.high_bytes ? std::to_string(r.low_bytes)
                                     : std::to_string(r.low_bytes) + " and " +
                                           std::to_string(r.high_bytes);
}

// Every process's record, once a disagreement is known (rare: the cost of a
// gather is paid only then).
std::vector<Record> gather_records(MPI_Comm context, const Record& mine,
                                   const std::string& function) {
  int size = 0;
  MPI_Comm_size(context, &size);
  std::vector<Record> all(static_cast<std::size_t>(size));
  transport::check_code(
      MPI_Allgather(&mine, sizeof(Record), MPI_BYTE, all.data(), sizeof(Record),
                    MPI_BYTE, context),
      function);
  return all;
}

template <class Text>
std::string texts_by_rank(const std::vector<Record>& records, Text text) {
  std::vector<std::string> texts;
  texts.reserve(records.size());
  for (const Record& r : records) texts.push_back(text(r));
  return by_rank(texts);
}

[[noreturn]] void raise_disagreement(const std::vector<Record>& records,
                                     const std::string& function, bool inter) {
  std::string what = "checked mode: the processes ";
  // Processes without the argument (kNone) take no part.
  const auto differ = [&records](Int Record::*field) {
    std::vector<Int> present;
    for (const Record& r : records) {
      if (r.*field != kNone) present.push_back(r.*field);
    }
    return std::adjacent_find(present.begin(), present.end(),
                              std::not_equal_to<>()) != present.end();
  };
  const bool names_differ =
      std::any_of(records.begin(), records.end(), [&](const Record& r) {
        return std::string(r.function.data()) !=
               std::string(records.front().function.data());
      });
  if (names_differ) {
    what += "called different collectives: " +
            texts_by_rank(records, [](const Record& r) {
              return std::string(r.function.data());
            });
  } else if (differ(&Record::root)) {
    what +=
        "disagree on the root: " + texts_by_rank(records, [](const Record& r) {
          return r.root == kNone ? std::string("(none)")
                                 : std::to_string(r.root);
        });
  } else if (differ(&Record::op)) {
    what +=
        "disagree on the reduction op: " +
        texts_by_rank(records, [](const Record& r) { return op_text(r.op); });
  } else {
    what +=
        "disagree on the bytes of a block: " +
        texts_by_rank(records, [](const Record& r) { return bytes_text(r); });
  }
  if (inter) what += " (ranks number both groups, in the context's order)";
  throw Error(ErrorClass::other, function, what);
}

}  // namespace

void set_checked(bool on) { checked_flag() = on; }

[[gnu::hot]] bool checked() { return checked_flag() && checked_above == 0; }

CheckedAbove::CheckedAbove() { ++checked_above; }

CheckedAbove::~CheckedAbove() { --checked_above; }

void CallFacts::set_op(MPI_Op reduction) { op = op_code(reduction); }

void CallFacts::add_block_bytes(std::int64_t bytes) {
  low_bytes = low_bytes == kNone ? bytes : std::min(low_bytes, bytes);
  high_bytes = high_bytes == kNone ? bytes : std::max(high_bytes, bytes);
}

void CallFacts::add_block(int count, MPI_Datatype datatype) {
  int size = 0;
  if (datatype == MPI_DATATYPE_NULL || MPI_Type_size(datatype, &size) != 0) {
    return;  // the call's own checks report it
  }
  add_block_bytes(Int{count} * size);
}

namespace internal {

// ORTHO_CHECK_TIMEOUT: how long a checked call's agreement waits for the
// other processes, in seconds (default 60; 0: for ever).
double check_timeout_s() {
  static const double seconds = [] {
    const char* value = std::getenv("ORTHO_CHECK_TIMEOUT");
    if (value == nullptr) return 60.0;
    char* end = nullptr;
    const double parsed = std::strtod(value, &end);
    if (end == value || *end != '\0' || parsed < 0) {
      throw Error(ErrorClass::arg, "classic (environment)",
                  std::string("ORTHO_CHECK_TIMEOUT = '") + value +
                      "' is no number of seconds >= 0");
    }
    return parsed;
  }();
  return seconds;
}

[[noreturn]] void raise_stalled(std::string_view function, int rank,
                                double limit, std::string_view waited_for) {
  // Where every process stalled, each learns every process's last call.
  const std::string everyone = last_calls_of_every_rank(limit);
  throw Error(
      ErrorClass::other, function,
      "checked mode: rank " + std::to_string(rank) + " called " +
          std::string(function) + " and waited " +
          std::to_string(static_cast<std::int64_t>(limit)) +
          " s (ORTHO_CHECK_TIMEOUT) for " + std::string(waited_for) +
          ": they called a collective on another communicator, another "
          "kind of collective on this one, or none (e.g. a loop left at "
          "different iterations, such as one whose test reduces over a "
          "graph instead of its base); " +
          (everyone.empty()
               ? std::string()
               : "the last checked call of each process: " + everyone + "; ") +
          "the communicator cannot be used after this error");
}

}  // namespace internal

void agree_on_call(const Comm& comm, const CallFacts& mine,
                   const std::exception_ptr& error) {
  const std::string function(mine.function);
  const Comm::State& state =
      internal::CommAccess::state(comm, function.c_str());
  int rank = 0;
  MPI_Comm_rank(state.transport, &rank);
  internal::Agreement agreement;
  const auto failed = agreement.ask_lowest_rank_where(error != nullptr, rank);
  const auto name = agreement.ask_range(name_code(mine.function));
  const PresentRange root(agreement, mine.root, mine.root);
  const PresentRange op(agreement, mine.op, mine.op);
  const PresentRange bytes(agreement, mine.low_bytes, mine.high_bytes);
  const double limit = internal::check_timeout_s();
  internal::note_checked_call(function, state.local.size(),
                              state.transport == Environment::world_context());
  if (!agreement.run_within(state.transport, function, limit)) {
    internal::raise_stalled(function, rank, limit,
                            "the other processes of its communicator");
  }
  if (const auto erring = agreement.lowest_rank_where(failed)) {
    if (error) std::rethrow_exception(error);
    throw Error(ErrorClass::other, function,
                "checked mode: rank " + std::to_string(*erring) +
                    " raised an error for its arguments; no process sent "
                    "anything");
  }
  if (agreement.range_low(name) == agreement.range_high(name) &&
      root.same(agreement) && op.same(agreement) && bytes.same(agreement)) {
    return;
  }
  raise_disagreement(gather_records(state.transport, record_of(mine), function),
                     function, !state.remote.is_null());
}

void agree_on_edges(const Comm& comm, std::span<const int> sources,
                    std::span<const std::int64_t> sent,
                    std::span<const std::int64_t> expected,
                    std::string_view function) {
  const std::string name(function);
  const Comm::State& state = internal::CommAccess::state(comm, name.c_str());
  // The first edge whose sizes differ here: its source, block, both sizes.
  std::array<Int, 4> mismatch{0, 0, 0, 0};
  bool found = false;
  for (std::size_t j = 0; j < expected.size() && !found; ++j) {
    if (sent[j] == expected[j]) continue;
    mismatch = {sources[j], static_cast<Int>(j), sent[j], expected[j]};
    found = true;
  }
  internal::Agreement agreement;
  const auto first = agreement.ask_lowest_rank_where(found, state.rank);
  agreement.run(state.transport, name);
  const auto reporter = agreement.lowest_rank_where(first);
  if (!reporter) return;
  transport::check_code(
      MPI_Bcast(mismatch.data(), static_cast<int>(mismatch.size()), MPI_INT64_T,
                *reporter, state.transport),
      name);
  // More than the receive block holds is MPI's truncation.
  throw Error(
      mismatch[2] > mismatch[3] ? ErrorClass::truncate : ErrorClass::other,
      name,
      "checked mode: the sizes of an edge differ: rank " +
          std::to_string(mismatch[0]) + " sends " +
          std::to_string(mismatch[2]) + " bytes to rank " +
          std::to_string(*reporter) + ", whose receive block " +
          std::to_string(mismatch[1]) + " from it holds " +
          std::to_string(mismatch[3]) + " bytes");
}

}  // namespace classic
