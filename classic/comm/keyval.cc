#include "classic/comm/keyval.h"

#include <climits>
#include <map>
#include <string>

#include "classic/base/error.h"
#include "classic/base/error_text.h"

namespace classic {
namespace {

enum class KeyState { live, freed };

struct Entry {
  internal::KeyvalCallbacks callbacks;
  KeyState state = KeyState::live;
  int attached = 0;  // attributes holding this key, over all stores
};

struct Registry {
  std::map<int, Entry> entries;
  int next_keyval = 0;
};

// Created on first use and never destroyed, so a communicator that is freed
// from a static destructor at exit still finds its keys.
Registry& registry() {
  static Registry* const instance = new Registry;
  return *instance;
}

int following(int keyval) { return keyval == INT_MAX ? 0 : keyval + 1; }

// Counting up (rather than reusing the smallest free number) keeps a stale
// copy of a freed keyval invalid for the next 2^31 creations.
int take_next_keyval(Registry& r) {
  while (r.entries.contains(r.next_keyval)) {
    r.next_keyval = following(r.next_keyval);
  }
  const int keyval = r.next_keyval;
  r.next_keyval = following(keyval);
  return keyval;
}

// The entry of `keyval`, or an ErrorClass::keyval naming `function`.
Entry& find_entry(int keyval, std::string_view function) {
  if (keyval == keyval_invalid) {
    throw Error(ErrorClass::keyval, function,
                error_text::named("keyval", keyval) + " is keyval_invalid");
  }
  auto& entries = registry().entries;
  auto found = entries.find(keyval);
  if (found == entries.end()) {
    throw Error(ErrorClass::keyval, function,
                error_text::named("keyval", keyval) +
                    " names no key (never created, or freed and reclaimed)");
  }
  return found->second;
}

int create(CopyFunction copy, DeleteFunction del, void* extra_state) {
  Registry& r = registry();
  const int keyval = take_next_keyval(r);
  const internal::KeyvalCallbacks callbacks{
      copy != nullptr ? copy : &comm_null_copy_fn,
      del != nullptr ? del : &comm_null_delete_fn, extra_state};
  r.entries.emplace(keyval, Entry{callbacks});
  return keyval;
}

void free_key(int& keyval, std::string_view function) {
  Entry& entry = find_entry(keyval, function);
  if (entry.state == KeyState::freed) {
    throw Error(ErrorClass::keyval, function,
                error_text::named("keyval", keyval) + " was already freed");
  }
  if (entry.attached == 0) {
    registry().entries.erase(keyval);
  } else {
    entry.state = KeyState::freed;  // reclaimed by the last release
  }
  keyval = keyval_invalid;
}

}  // namespace

int comm_create_keyval(CopyFunction copy, DeleteFunction del,
                       void* extra_state) {
  return create(copy, del, extra_state);
}

int keyval_create(CopyFunction copy, DeleteFunction del, void* extra_state) {
  return create(copy, del, extra_state);
}

void comm_free_keyval(int& keyval) {
  free_key(keyval, "classic::comm_free_keyval");
}

void keyval_free(int& keyval) { free_key(keyval, "classic::keyval_free"); }

int comm_null_copy_fn(const Comm& /*oldcomm*/, int /*keyval*/,
                      void* /*extra_state*/, void* /*attribute_val_in*/,
                      void** /*attribute_val_out*/, bool* flag) {
  *flag = false;
  return 0;
}

int comm_dup_fn(const Comm& /*oldcomm*/, int /*keyval*/, void* /*extra_state*/,
                void* attribute_val_in, void** attribute_val_out, bool* flag) {
  *attribute_val_out = attribute_val_in;
  *flag = true;
  return 0;
}

int comm_null_delete_fn(const Comm& /*comm*/, int /*keyval*/,
                        void* /*attribute_val*/, void* /*extra_state*/) {
  return 0;
}

std::size_t live_keyval_count() { return registry().entries.size(); }

namespace internal {

KeyvalCallbacks lookup_keyval(int keyval, KeyvalUse use,
                              std::string_view function) {
  const Entry& entry = find_entry(keyval, function);
  if (use == KeyvalUse::attach && entry.state == KeyState::freed) {
    throw Error(ErrorClass::keyval, function,
                error_text::named("keyval", keyval) +
                    " was freed; a freed key takes no new "
                    "attributes");
  }
  return entry.callbacks;
}

void retain_keyval(int keyval) {
  ++find_entry(keyval, "classic::internal::retain_keyval").attached;
}

void release_keyval(int keyval) noexcept {
  auto& entries = registry().entries;
  auto found = entries.find(keyval);
  if (found == entries.end()) return;  // unmatched release: nothing to undo
  Entry& entry = found->second;
  if (--entry.attached == 0 && entry.state == KeyState::freed) {
    entries.erase(found);
  }
}

}  // namespace internal

}  // namespace classic
