#include "ortho/checked.h"

#include <cstdlib>
#include <cstring>

namespace ortho {
namespace {

bool& checked_flag() {
  static bool flag = [] {
    const char* value = std::getenv("ORTHO_CHECK");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return flag;
}

}  // namespace

void set_checked(bool on) { checked_flag() = on; }

bool checked() { return checked_flag(); }

}  // namespace ortho
