#include "classic/comm/attributes.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

#include "classic/base/error.h"
#include "classic/base/error_text.h"

namespace classic {
namespace {

constexpr std::string_view kSet = "classic::AttributeStore::set";
constexpr std::string_view kGet = "classic::AttributeStore::get";
constexpr std::string_view kRemove = "classic::AttributeStore::remove";
constexpr std::string_view kCopyForDup =
    "classic::AttributeStore::copy_for_dup";
constexpr std::string_view kDeleteAll = "classic::AttributeStore::delete_all";

using internal::KeyvalUse;

std::string callback_failed(std::string_view which, int keyval, int code) {
  return std::string(which) + " callback of " +
         error_text::named("keyval", keyval) + " returned " +
         std::to_string(code);
}

// Runs the delete callback of an attribute; a nonzero result becomes
// ErrorClass::other naming `function` (the caller leaves the attribute).
void run_delete(const Comm& comm, int keyval, void* value,
                std::string_view function) {
  const auto callbacks =
      internal::lookup_keyval(keyval, KeyvalUse::access, function);
  const int code = callbacks.del(comm, keyval, value, callbacks.extra_state);
  if (code != 0) {
    throw Error(ErrorClass::other, function,
                callback_failed("delete", keyval, code) +
                    "; the attribute stays attached");
  }
}

}  // namespace

AttributeStore::AttributeStore(AttributeStore&& other) noexcept
    : attributes_(std::exchange(other.attributes_, {})) {}

AttributeStore& AttributeStore::operator=(AttributeStore&& other) noexcept {
  if (this != &other) {
    release_all();
    attributes_ = std::exchange(other.attributes_, {});
  }
  return *this;
}

AttributeStore::~AttributeStore() { release_all(); }

void AttributeStore::set(const Comm& comm, int keyval, void* value) {
  internal::lookup_keyval(keyval, KeyvalUse::attach, kSet);
  if (auto old = find(keyval); old != attributes_.end()) {
    run_delete(comm, keyval, old->value, kSet);
    detach(keyval);  // found again: the callback may have changed the store
  }
  attributes_.reserve(attributes_.size() + 1);  // no throw after retain
  internal::retain_keyval(keyval);
  attributes_.push_back({keyval, value});
}

[[gnu::hot]] std::optional<void*> AttributeStore::get(int keyval) const {
  // An attached key is a valid one (it stays registered while attached),
  // so a hit needs no registry lookup: the hot path of cached lookups.
  auto found = find(keyval);
  if (found != attributes_.end()) return found->value;
  internal::lookup_keyval(keyval, KeyvalUse::access, kGet);
  return std::nullopt;
}

void AttributeStore::remove(const Comm& comm, int keyval) {
  internal::lookup_keyval(keyval, KeyvalUse::access, kRemove);
  auto found = find(keyval);
  if (found == attributes_.end()) return;
  run_delete(comm, keyval, found->value, kRemove);
  detach(keyval);
}

AttributeStore AttributeStore::copy_for_dup(const Comm& old_comm) const {
  const std::vector<Attribute> originals = attributes_;
  AttributeStore duplicate;
  duplicate.attributes_.reserve(originals.size());
  for (const Attribute& original : originals) {
    const auto callbacks = internal::lookup_keyval(
        original.keyval, KeyvalUse::access, kCopyForDup);
    void* copied = nullptr;
    bool flag = false;
    int code = 0;
    try {
      code = callbacks.copy(old_comm, original.keyval, callbacks.extra_state,
                            original.value, &copied, &flag);
    } catch (...) {
      duplicate.discard_after_failed_copy(old_comm);
      throw;
    }
    if (code != 0) {
      const std::size_t copied_before = duplicate.size();
      const int failed = duplicate.discard_after_failed_copy(old_comm);
      throw Error(ErrorClass::other, kCopyForDup,
                  callback_failed("copy", original.keyval, code) +
                      "; the duplicate was discarded after deleting the " +
                      std::to_string(copied_before) +
                      " attribute(s) copied before it (" +
                      std::to_string(failed) + " delete callback(s) failed)");
    }
    if (flag) {
      internal::retain_keyval(original.keyval);
      duplicate.attributes_.push_back({original.keyval, copied});
    }
  }
  return duplicate;
}

void AttributeStore::delete_all(const Comm& comm) {
  const std::vector<Attribute> snapshot = attributes_;
  std::string failures;
  for (auto it = snapshot.rbegin(); it != snapshot.rend(); ++it) {
    auto current = find(it->keyval);
    // A callback run before may have removed or replaced this attribute.
    if (current == attributes_.end() || current->value != it->value) continue;
    const auto callbacks =
        internal::lookup_keyval(it->keyval, KeyvalUse::access, kDeleteAll);
    const int code =
        callbacks.del(comm, it->keyval, it->value, callbacks.extra_state);
    if (code == 0) {
      detach(it->keyval);
    } else {
      failures += (failures.empty() ? "" : ", ") +
                  callback_failed("delete", it->keyval, code);
    }
  }
  if (!failures.empty()) {
    throw Error(ErrorClass::other, kDeleteAll,
                failures + "; those attributes stay attached");
  }
}

std::vector<int> AttributeStore::keyvals() const {
  std::vector<int> result;
  result.reserve(attributes_.size());
  std::transform(attributes_.begin(), attributes_.end(),
                 std::back_inserter(result),
                 [](const Attribute& attribute) { return attribute.keyval; });
  return result;
}

std::vector<AttributeStore::Attribute>::iterator AttributeStore::find(
    int keyval) {
  return std::find_if(attributes_.begin(), attributes_.end(),
                      [keyval](const Attribute& attribute) {
                        return attribute.keyval == keyval;
                      });
}

void AttributeStore::detach(int keyval) {
  auto found = find(keyval);
  if (found == attributes_.end()) return;
  attributes_.erase(found);
  internal::release_keyval(keyval);
}

void AttributeStore::release_all() noexcept {
  for (const Attribute& attribute : attributes_) {
    internal::release_keyval(attribute.keyval);
  }
  attributes_.clear();
}

// Deletes every attribute of this (partial) duplicate, newest first, and
// empties it; returns how many delete callbacks failed or threw. The values
// of those are lost with the duplicate: nothing else could free them.
int AttributeStore::discard_after_failed_copy(const Comm& old_comm) noexcept {
  int failed = 0;
  for (auto it = attributes_.rbegin(); it != attributes_.rend(); ++it) {
    try {
      const auto callbacks =
          internal::lookup_keyval(it->keyval, KeyvalUse::access, kCopyForDup);
      if (callbacks.del(old_comm, it->keyval, it->value,
                        callbacks.extra_state) != 0) {
        ++failed;
      }
    } catch (...) {
      ++failed;
    }
  }
  release_all();
  return failed;
}

}  // namespace classic
