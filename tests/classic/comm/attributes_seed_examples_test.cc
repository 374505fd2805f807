// The attributes example of MPI-1 section 5.7.2, on
// AttributeStore.
// MPI-free; helpers in attributes_testing.h.
#include <gtest/gtest.h>

#include <optional>

#include "classic/base/error.h"
#include "classic/comm/attributes.h"
#include "classic/comm/keyval.h"
#include "tests/classic/comm/attributes_testing.h"

namespace classic::attributes_testing {
namespace {

// ---------------------------------------------------------------------------
// The attributes example of MPI-1 section 5.7.2, on this API. The seed's
// copier only bumps the reference count (its MPI-2 version assigns a local);
// per the MPI-2 text it must also return the value and set flag, as here.

struct GopStuff {
  int ref_count;  // reference count
  // other stuff, whatever else we want
};

int gop_key = keyval_invalid;  // key for this module's stuff
int gop_allocations = 0;
int gop_live = 0;

int gop_stuff_destructor(const Comm&, int keyval, void* attribute_val, void*) {
  if (keyval != gop_key) return 1;  // programming error
  auto* gop_stuff = static_cast<GopStuff*>(attribute_val);
  // The communicator's being freed removes one reference to gop_stuff.
  gop_stuff->ref_count -= 1;
  if (gop_stuff->ref_count == 0) {
    delete gop_stuff;
    --gop_live;
  }
  return 0;
}

int gop_stuff_copier(const Comm&, int keyval, void*, void* attribute_val_in,
                     void** attribute_val_out, bool* flag) {
  if (keyval != gop_key) return 1;  // programming error
  // The new communicator adds one reference to this gop_stuff.
  static_cast<GopStuff*>(attribute_val_in)->ref_count += 1;
  *attribute_val_out = attribute_val_in;
  *flag = true;
  return 0;
}

GopStuff* efficient_collective_op(const Comm& comm, AttributeStore& cache) {
  if (gop_key == keyval_invalid) {  // get a key on first call ever
    gop_key =
        comm_create_keyval(&gop_stuff_copier, &gop_stuff_destructor, nullptr);
  }
  if (std::optional<void*> found = cache.get(gop_key)) {
    // This module has executed in this group before: use the cached data.
    return static_cast<GopStuff*>(*found);
  }
  // A group we have not cached anything in yet.
  auto* gop_stuff = new GopStuff{1};
  ++gop_allocations;
  ++gop_live;
  cache.set(comm, gop_key, gop_stuff);
  return gop_stuff;
}

TEST_F(AttributesTest, AttributesExampleOfSection572) {
  gop_key = keyval_invalid;
  gop_allocations = 0;
  gop_live = 0;
  AttributeStore world_cache;
  GopStuff* first = efficient_collective_op(comm_, world_cache);
  EXPECT_NE(gop_key, keyval_invalid);
  GopStuff* again = efficient_collective_op(comm_, world_cache);
  EXPECT_EQ(again, first);  // cached after the first call
  EXPECT_EQ(gop_allocations, 1);

  Comm dup_comm{3};
  AttributeStore dup_cache = world_cache.copy_for_dup(comm_);
  EXPECT_EQ(efficient_collective_op(dup_comm, dup_cache), first);  // shared
  EXPECT_EQ(first->ref_count, 2);
  EXPECT_EQ(gop_allocations, 1);

  AttributeStore other_cache;  // an unrelated communicator
  GopStuff* other = efficient_collective_op(other_comm_, other_cache);
  EXPECT_NE(other, first);
  EXPECT_EQ(gop_allocations, 2);

  dup_cache.delete_all(dup_comm);  // freeing the dup drops one reference
  EXPECT_EQ(first->ref_count, 1);
  EXPECT_EQ(gop_live, 2);
  world_cache.delete_all(comm_);
  other_cache.delete_all(other_comm_);
  EXPECT_EQ(gop_live, 0);
  comm_free_keyval(gop_key);
  EXPECT_EQ(gop_key, keyval_invalid);
}

}  // namespace
}  // namespace classic::attributes_testing
