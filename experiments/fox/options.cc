#include "experiments/fox/options.h"

#include <charconv>
#include <optional>
#include <system_error>

namespace fox {
namespace {

// `text` as a whole number in [minimum, max of T], or nullopt.
template <typename T>
std::optional<T> number(std::string_view text, T minimum) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || rest != end || value < minimum) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::vector<Variant>> variants(std::string_view text) {
  if (text == "cartesian") return std::vector{Variant::cartesian};
  if (text == "named") return std::vector{Variant::named};
  if (text == "both") return std::vector{Variant::cartesian, Variant::named};
  return std::nullopt;
}

// Applies one "--name=value" flag; returns the error, or "" when it is fine.
std::string apply_value(std::string_view name, std::string_view value,
                        Options& options) {
  const std::string flag = "--" + std::string(name) + "=" + std::string(value);
  if (name == "n") {
    const auto n = number<int>(value, 1);
    if (!n) return flag + ": the matrix order must be a positive integer";
    options.n = *n;
  } else if (name == "repetitions") {
    const auto repetitions = number<int>(value, 1);
    if (!repetitions) return flag + ": must be a positive integer";
    options.repetitions = *repetitions;
  } else if (name == "seed") {
    const auto seed = number<std::uint64_t>(value, 0);
    if (!seed) return flag + ": must be a non-negative integer";
    options.seed = *seed;
  } else if (name == "variant") {
    const auto chosen = variants(value);
    if (!chosen) return flag + ": must be cartesian, named or both";
    options.variants = *chosen;
  } else {
    return "unknown flag --" + std::string(name);
  }
  return "";
}

// Applies one argument to `parsed`; returns false on an error.
bool apply(std::string_view arg, ParsedOptions& parsed) {
  if (arg == "--help" || arg == "-h") {
    parsed.help = true;
  } else if (arg == "--inject-error") {
    parsed.options.inject_error = true;
  } else if (arg.starts_with("--") && arg.find('=') != std::string_view::npos) {
    const std::size_t equals = arg.find('=');
    parsed.error = apply_value(arg.substr(2, equals - 2),
                               arg.substr(equals + 1), parsed.options);
  } else {
    parsed.error = "unexpected argument '" + std::string(arg) +
                   "' (flags are --name=value)";
  }
  return parsed.error.empty();
}

}  // namespace

ParsedOptions parse_options(std::span<const std::string_view> args) {
  ParsedOptions parsed;
  for (const std::string_view arg : args) {
    if (!apply(arg, parsed)) break;
  }
  return parsed;
}

std::string usage(std::string_view program) {
  return "usage: mpirun -np P " + std::string(program) +
         " [--n=N] [--repetitions=R] [--variant=cartesian|named|both]\n"
         "           [--seed=S] [--inject-error]\n"
         "Fox's matrix multiplication C = A B on a q x q process grid "
         "(P = q * q).\n"
         "  --n=N            matrix order, a multiple of q (default 240)\n"
         "  --repetitions=R  multiplications timed per variant (default 3)\n"
         "  --variant=V      cartesian: classic cart_create/cart_sub/"
         "cart_shift;\n"
         "                   named: naming cart_name/cart_create_sub; both "
         "(default)\n"
         "  --seed=S         seed of the integer-valued inputs (default 1)\n"
         "  --inject-error   corrupt one entry of C before the check (the run "
         "then fails)\n"
         "Prints one line per variant on rank 0; exits 1 if C differs from "
         "Eigen's product, 2 on a bad flag or process count.\n";
}

}  // namespace fox
