// Shared by the MPI-free attribute tests (keyvals, AttributeStore, Keyval<T>):
// a stand-in classic::Comm that carries only an id, so callbacks can tell
// which communicator they were given, callbacks that record their calls, a
// value that counts its instances, and a fixture that checks that no key and
// no value is left behind. Never link with //classic/comm:comm, whose Comm
// this stand-in replaces.
#ifndef ORTHOCOMM_TESTS_CLASSIC_COMM_ATTRIBUTES_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_COMM_ATTRIBUTES_TESTING_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "classic/comm/attributes.h"
#include "classic/comm/keyval.h"

namespace classic {
// Stand-in for the real communicator.
class Comm {
 public:
  int id;
};
}  // namespace classic

namespace classic::attributes_testing {

// Records every callback call; extra_state of the counting keyvals.
struct Calls {
  int copies = 0;
  int deletes = 0;
  int fail_copy = 0;    // returned by the copy callback when nonzero
  int fail_delete = 0;  // returned by the delete callback
  bool copy_flag = true;
  std::vector<int> copy_comm_ids;
  std::vector<int> delete_comm_ids;
  std::vector<int> deleted_keyvals;
  std::vector<void*> deleted_values;
};

inline Calls& calls_of(void* extra_state) {
  return *static_cast<Calls*>(extra_state);
}

inline int counting_copy(const Comm& oldcomm, int /*keyval*/, void* extra_state,
                         void* attribute_val_in, void** attribute_val_out,
                         bool* flag) {
  Calls& calls = calls_of(extra_state);
  ++calls.copies;
  calls.copy_comm_ids.push_back(oldcomm.id);
  if (calls.fail_copy != 0) return calls.fail_copy;
  *attribute_val_out = attribute_val_in;
  *flag = calls.copy_flag;
  return 0;
}

inline int counting_delete(const Comm& comm, int keyval, void* attribute_val,
                           void* extra_state) {
  Calls& calls = calls_of(extra_state);
  ++calls.deletes;
  calls.delete_comm_ids.push_back(comm.id);
  calls.deleted_keyvals.push_back(keyval);
  calls.deleted_values.push_back(attribute_val);
  return calls.fail_delete;
}

// Also records the order of delete calls across keyvals.
inline std::vector<int>* global_delete_order = nullptr;

inline int ordered_delete(const Comm& comm, int keyval, void* attribute_val,
                          void* extra_state) {
  if (global_delete_order != nullptr) global_delete_order->push_back(keyval);
  return counting_delete(comm, keyval, attribute_val, extra_state);
}

// A value that counts its live instances; its copy constructor can be told
// to throw after a number of copies.
struct Tracked {
  static inline int live = 0;
  static inline int copies_until_throw = -1;  // negative: never throw

  explicit Tracked(int v) : value(v) { ++live; }
  Tracked(const Tracked& other) : value(other.value) {
    if (copies_until_throw == 0) throw std::runtime_error("copy refused");
    if (copies_until_throw > 0) --copies_until_throw;
    ++live;
  }
  Tracked& operator=(const Tracked&) = default;
  ~Tracked() { --live; }

  int value;
};

// Raw callbacks that own heap Tracked values; extra_state is a Calls.
inline int tracked_copy(const Comm& oldcomm, int keyval, void* extra_state,
                        void* attribute_val_in, void** attribute_val_out,
                        bool* flag) {
  void* unused = nullptr;
  const int code = counting_copy(oldcomm, keyval, extra_state, attribute_val_in,
                                 &unused, flag);
  if (code != 0) return code;
  *attribute_val_out = new Tracked(*static_cast<Tracked*>(attribute_val_in));
  return 0;
}

inline int tracked_delete(const Comm& comm, int keyval, void* attribute_val,
                          void* extra_state) {
  const int code = counting_delete(comm, keyval, attribute_val, extra_state);
  if (code == 0) delete static_cast<Tracked*>(attribute_val);
  return code;
}

inline int always_fail_copy(const Comm&, int, void*, void*, void**, bool*) {
  return 3;
}

inline int throwing_copy(const Comm&, int, void*, void*, void**, bool*) {
  throw std::runtime_error("copy callback threw");
}

inline int value_slots[16];  // distinct addresses to store as attribute values
inline void* slot(int i) { return &value_slots[i]; }

// Every test must leave no key and no Tracked value behind.
class AttributesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    baseline_keyvals_ = live_keyval_count();
    Tracked::live = 0;
    Tracked::copies_until_throw = -1;
  }
  void TearDown() override {
    EXPECT_EQ(live_keyval_count(), baseline_keyvals_) << "a key leaked";
    EXPECT_EQ(Tracked::live, 0) << "a value leaked";
  }

  int counting_keyval(Calls& calls) {
    return comm_create_keyval(&counting_copy, &counting_delete, &calls);
  }

  std::size_t baseline_keyvals_ = 0;
  Comm comm_{1};
  Comm other_comm_{2};
};

}  // namespace classic::attributes_testing

#endif  // ORTHOCOMM_TESTS_CLASSIC_COMM_ATTRIBUTES_TESTING_H_
