// The command lines of the stencil experiments (MPI-free): "--name=value"
// and "--name" arguments, numbers and lists.
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_FLAGS_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_FLAGS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace halo {

// `text` as a whole number >= minimum, or nullopt.
std::optional<int> parse_int(std::string_view text, int minimum);
std::optional<std::uint64_t> parse_uint64(std::string_view text);
// `text` as a finite number >= minimum (strtod's syntax), or nullopt.
std::optional<double> parse_double(std::string_view text, double minimum);
// "a,b,c" as {"a", "b", "c"} (empty items kept).
std::vector<std::string_view> split_list(std::string_view text);

// What a program does with one flag: "" when it is fine, else the error.
using ApplySwitch = std::function<std::string(std::string_view name)>;
using ApplyValue =
    std::function<std::string(std::string_view name, std::string_view value)>;

// Goes through `args`: "--help" / "-h" set help; "--name" goes to
// on_switch, "--name=value" to on_value; anything else is an error. Stops
// at the first error and returns it ("" when every argument was fine).
std::string parse_flags(std::span<const std::string_view> args, bool& help,
                        const ApplySwitch& on_switch,
                        const ApplyValue& on_value);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_FLAGS_H_
