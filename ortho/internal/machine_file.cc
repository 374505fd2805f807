#include "ortho/internal/machine_file.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

namespace ortho::internal {
namespace {

// One key a section takes, and where its value goes.
struct Key {
  std::string_view section;  // "" for the keys before any section
  std::string_view name;
  enum class Kind { text, count, number } kind;
  // Whole numbers: the least allowed.
  int least = 0;
  // A key that may be left out (its value then 0).
  bool optional = false;
};

constexpr Key kKeys[] = {
    {"", "name", Key::Kind::text},
    {"", "cores_per_node", Key::Kind::count, 1},
    {"", "shared_cores", Key::Kind::count, 0},
    {"", "copy_byte_ns", Key::Kind::number},
    {"", "switch_ns", Key::Kind::number},
    {"within", "latency_ns", Key::Kind::number},
    {"within", "message_ns", Key::Kind::number},
    {"within", "peer_ns", Key::Kind::number, 0, true},
    {"within", "byte_ns", Key::Kind::number},
    {"within", "receive_message_ns", Key::Kind::number},
    {"within", "receive_byte_ns", Key::Kind::number},
    {"within", "eager_bytes", Key::Kind::number},
    {"within", "rendezvous_ns", Key::Kind::number},
    {"within", "inline_bytes", Key::Kind::number},
    {"within", "spanning_latency_ns", Key::Kind::number},
    {"between", "latency_ns", Key::Kind::number},
    {"between", "message_ns", Key::Kind::number},
    {"between", "peer_ns", Key::Kind::number, 0, true},
    {"between", "byte_ns", Key::Kind::number},
    {"between", "receive_message_ns", Key::Kind::number},
    {"between", "receive_byte_ns", Key::Kind::number},
    {"between", "eager_bytes", Key::Kind::number},
    {"between", "rendezvous_ns", Key::Kind::number},
    {"between", "inline_bytes", Key::Kind::number},
    {"node", "injection_message_ns", Key::Kind::number},
    {"node", "injection_byte_ns", Key::Kind::number},
    {"node", "multiply_add_ns", Key::Kind::number, 0, true},
};

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::string qualified(std::string_view section, std::string_view name) {
  std::string key;
  if (!section.empty()) key = "[" + std::string(section) + "] ";
  return key + std::string(name);
}

[[noreturn]] void fail(std::string_view origin, int line,
                       std::string_view what) {
  std::ostringstream message;
  message << origin << ":" << line << ": " << what;
  throw MachineFileError(message.str());
}

double number_of(std::string_view value, std::string_view origin, int line,
                 const std::string& key) {
  double number = 0;
  const auto [end, error] =
      std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc{} || end != value.data() + value.size() ||
      !std::isfinite(number)) {
    fail(origin, line,
         key + " = '" + std::string(value) + "' is not a finite number");
  }
  if (number < 0) {
    fail(origin, line, key + " = " + std::string(value) + " is negative");
  }
  return number;
}

int count_of(std::string_view value, std::string_view origin, int line,
             const std::string& key, int least) {
  int count = 0;
  const auto [end, error] =
      std::from_chars(value.data(), value.data() + value.size(), count);
  if (error != std::errc{} || end != value.data() + value.size()) {
    fail(origin, line,
         key + " = '" + std::string(value) + "' is not a whole number");
  }
  if (count < least) {
    fail(origin, line,
         key + " = " + std::string(value) + " is below " +
             std::to_string(least));
  }
  return count;
}

// The number a key names in `machine` (const or not).
template <typename M>
auto* number_slot(M& machine, std::string_view section, std::string_view name) {
  if (section.empty()) {
    return name == "copy_byte_ns" ? &machine.copy_byte_ns : &machine.switch_ns;
  }
  if (section == "node") {
    if (name == "multiply_add_ns") return &machine.multiply_add_ns;
    return name == "injection_message_ns" ? &machine.injection_message_ns
                                          : &machine.injection_byte_ns;
  }
  if (name == "spanning_latency_ns") {
    return &machine.within_spanning_latency_ns;
  }
  auto& link = section == "within" ? machine.within : machine.between;
  if (name == "latency_ns") return &link.latency_ns;
  if (name == "message_ns") return &link.message_ns;
  if (name == "peer_ns") return &link.peer_ns;
  if (name == "byte_ns") return &link.byte_ns;
  if (name == "receive_message_ns") return &link.receive_message_ns;
  if (name == "receive_byte_ns") return &link.receive_byte_ns;
  if (name == "eager_bytes") return &link.eager_bytes;
  if (name == "inline_bytes") return &link.inline_bytes;
  return &link.rendezvous_ns;
}

void assign(Machine& machine, const Key& key, std::string_view value,
            std::string_view origin, int line) {
  const std::string name = qualified(key.section, key.name);
  if (value.empty()) fail(origin, line, name + " has no value");
  switch (key.kind) {
    case Key::Kind::text:
      machine.name = std::string(value);
      return;
    case Key::Kind::count:
      (key.name == "cores_per_node" ? machine.cores_per_node
                                    : machine.shared_cores) =
          count_of(value, origin, line, name, key.least);
      return;
    case Key::Kind::number:
      *number_slot(machine, key.section, key.name) =
          number_of(value, origin, line, name);
      return;
  }
}

const Key* find_key(std::string_view section, std::string_view name) {
  for (const Key& key : kKeys) {
    if (key.section == section && key.name == name) return &key;
  }
  return nullptr;
}

bool known_section(std::string_view section) {
  for (const Key& key : kKeys) {
    if (key.section == section) return true;
  }
  return false;
}

}  // namespace

Machine parse_machine(std::string_view text, std::string_view origin) {
  Machine machine;
  std::string section;
  std::set<std::string> seen;
  int line_number = 0;
  std::istringstream lines{std::string(text)};
  for (std::string raw; std::getline(lines, raw);) {
    ++line_number;
    std::string_view line = raw;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    line = trimmed(line);
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']') {
        fail(origin, line_number,
             "'" + std::string(line) +
                 "' opens a section and does not close it");
      }
      section = std::string(trimmed(line.substr(1, line.size() - 2)));
      if (section.empty() || !known_section(section)) {
        fail(origin, line_number,
             "unknown section [" + section +
                 "] (sections: within, between, node)");
      }
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) {
      fail(origin, line_number,
           "'" + std::string(line) + "' is not 'key = value'");
    }
    const std::string_view name = trimmed(line.substr(0, equals));
    const Key* key = find_key(section, name);
    if (key == nullptr) {
      fail(origin, line_number, "unknown key " + qualified(section, name));
    }
    if (!seen.insert(qualified(section, name)).second) {
      fail(origin, line_number, qualified(section, name) + " is given twice");
    }
    assign(machine, *key, trimmed(line.substr(equals + 1)), origin,
           line_number);
  }
  for (const Key& key : kKeys) {
    if (!key.optional && !seen.contains(qualified(key.section, key.name))) {
      fail(origin, line_number, "missing " + qualified(key.section, key.name));
    }
  }
  return machine;
}

std::string machine_file_text(const Machine& machine,
                              std::string_view comment) {
  std::ostringstream text;
  std::istringstream lines{std::string(comment)};
  for (std::string line; std::getline(lines, line);) {
    text << "# " << line << '\n';
  }
  std::string_view section;
  for (const Key& key : kKeys) {
    if (key.section != section) {
      section = key.section;
      text << "\n[" << section << "]\n";
    }
    text << key.name << " = ";
    switch (key.kind) {
      case Key::Kind::text:
        text << machine.name;
        break;
      case Key::Kind::count:
        text << (key.name == "cores_per_node" ? machine.cores_per_node
                                              : machine.shared_cores);
        break;
      case Key::Kind::number: {
        const double value = *number_slot(machine, key.section, key.name);
        text << (value < 1e-9 ? 0.0 : value);
        break;
      }
    }
    text << "\n";
  }
  return text.str();
}

Machine load_machine(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw MachineFileError(path + ": cannot be read");
  std::ostringstream text;
  text << file.rdbuf();
  return parse_machine(text.str(), path);
}

}  // namespace ortho::internal
