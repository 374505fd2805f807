#include "ortho/checked.h"

#include "classic/collectives/checked.h"

namespace ortho {

void set_checked(bool on) { classic::set_checked(on); }

[[gnu::hot]] bool checked() { return classic::checked(); }

}  // namespace ortho
