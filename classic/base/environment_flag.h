// Boolean environment variables (ORTHO_CHECK, ORTHO_STRICT, ...), read
// alike everywhere: 1, true, yes, on turn a flag on; 0, false, no, off and
// the empty string turn it off (in any case); anything else is an error
// that names the variable and its value, not a silent "off".
#ifndef ORTHOCOMM_CLASSIC_BASE_ENVIRONMENT_FLAG_H_
#define ORTHOCOMM_CLASSIC_BASE_ENVIRONMENT_FLAG_H_

#include <optional>
#include <string_view>

namespace classic {

// The value of `text` as a flag; nullopt where it is none of the words
// above. MPI-free.
std::optional<bool> parse_flag(std::string_view text);

// Whether the environment variable `name` turns its flag on (false where it
// is unset). Throws classic::Error: arg, raised by `function`, for a value
// that is no flag.
bool environment_flag(const char* name, const char* function);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_ENVIRONMENT_FLAG_H_
