// The machine file parser: a complete file's values, and every kind of
// malformed file rejected with its line, key and value named.
#include "ortho/internal/machine_file.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using ortho::internal::MachineFileError;
using ortho::internal::parse_machine;

const char kComplete[] = R"(# a machine
name = test cluster   # trailing comment
cores_per_node = 64
shared_cores = 0
copy_byte_ns = 0.05
switch_ns = 0

[within]
latency_ns = 300
message_ns = 100
byte_ns = 0.1
receive_message_ns = 90
receive_byte_ns = 0.09
eager_bytes = 4096
rendezvous_ns = 600
inline_bytes = 256
spanning_latency_ns = 1200

[ between ]
latency_ns = 1000
message_ns = 200
byte_ns = 5e-2
receive_message_ns = 180
receive_byte_ns = 4.5e-2
eager_bytes = 8192
rendezvous_ns = 2000
inline_bytes = 8192

[node]
injection_message_ns = 4.65
injection_byte_ns = 0.04
)";

// kComplete with the first occurrence of `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  std::string text = kComplete;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  return text;
}

// The error parsing `text` raises (empty where it parses).
std::string error_of(const std::string& text) {
  try {
    parse_machine(text, "m.machine");
  } catch (const MachineFileError& error) {
    return error.what();
  }
  return "";
}

TEST(MachineFile, ReadsEveryValue) {
  const ortho::internal::Machine machine =
      parse_machine(kComplete, "m.machine");
  EXPECT_EQ(machine.name, "test cluster");
  EXPECT_EQ(machine.cores_per_node, 64);
  EXPECT_EQ(machine.shared_cores, 0);
  EXPECT_DOUBLE_EQ(machine.copy_byte_ns, 0.05);
  EXPECT_DOUBLE_EQ(machine.switch_ns, 0);
  EXPECT_DOUBLE_EQ(machine.within.latency_ns, 300);
  EXPECT_DOUBLE_EQ(machine.within.message_ns, 100);
  EXPECT_DOUBLE_EQ(machine.within.byte_ns, 0.1);
  EXPECT_DOUBLE_EQ(machine.within.receive_message_ns, 90);
  EXPECT_DOUBLE_EQ(machine.within.receive_byte_ns, 0.09);
  EXPECT_DOUBLE_EQ(machine.within.eager_bytes, 4096);
  EXPECT_DOUBLE_EQ(machine.within.rendezvous_ns, 600);
  EXPECT_DOUBLE_EQ(machine.within.inline_bytes, 256);
  EXPECT_DOUBLE_EQ(machine.within_spanning_latency_ns, 1200);
  EXPECT_DOUBLE_EQ(machine.between.latency_ns, 1000);
  EXPECT_DOUBLE_EQ(machine.between.message_ns, 200);
  EXPECT_DOUBLE_EQ(machine.between.byte_ns, 0.05);
  EXPECT_DOUBLE_EQ(machine.between.receive_message_ns, 180);
  EXPECT_DOUBLE_EQ(machine.between.receive_byte_ns, 0.045);
  EXPECT_DOUBLE_EQ(machine.between.eager_bytes, 8192);
  EXPECT_DOUBLE_EQ(machine.between.rendezvous_ns, 2000);
  EXPECT_DOUBLE_EQ(machine.between.inline_bytes, 8192);
  EXPECT_DOUBLE_EQ(machine.injection_message_ns, 4.65);
  EXPECT_DOUBLE_EQ(machine.injection_byte_ns, 0.04);
}

TEST(MachineFile, RejectsAValueThatIsNotANumber) {
  EXPECT_EQ(error_of(with("byte_ns = 0.1", "byte_ns = fast")),
            "m.machine:11: [within] byte_ns = 'fast' is not a finite number");
  EXPECT_EQ(error_of(with("byte_ns = 0.1", "byte_ns = 0.1x")),
            "m.machine:11: [within] byte_ns = '0.1x' is not a finite number");
  EXPECT_EQ(error_of(with("latency_ns = 1000", "latency_ns = inf")),
            "m.machine:20: [between] latency_ns = 'inf' is not a finite "
            "number");
}

TEST(MachineFile, RejectsNegativeAndEmptyValues) {
  EXPECT_EQ(error_of(with("message_ns = 200", "message_ns = -1")),
            "m.machine:21: [between] message_ns = -1 is negative");
  EXPECT_EQ(error_of(with("injection_byte_ns = 0.04", "injection_byte_ns =")),
            "m.machine:31: [node] injection_byte_ns has no value");
}

TEST(MachineFile, RejectsCoreCountsOutOfRange) {
  EXPECT_EQ(error_of(with("cores_per_node = 64", "cores_per_node = 0")),
            "m.machine:3: cores_per_node = 0 is below 1");
  EXPECT_EQ(error_of(with("cores_per_node = 64", "cores_per_node = 1.5")),
            "m.machine:3: cores_per_node = '1.5' is not a whole number");
  EXPECT_EQ(error_of(with("shared_cores = 0", "shared_cores = -2")),
            "m.machine:4: shared_cores = -2 is below 0");
}

TEST(MachineFile, RejectsUnknownKeysAndSections) {
  EXPECT_EQ(error_of(with("eager_bytes = 4096", "eager = 4096")),
            "m.machine:14: unknown key [within] eager");
  EXPECT_EQ(error_of(with("[node]", "[nic]")),
            "m.machine:29: unknown section [nic] (sections: within, between, "
            "node)");
  EXPECT_EQ(error_of(with("[node]", "[node")),
            "m.machine:29: '[node' opens a section and does not close it");
  // A section's key outside it.
  EXPECT_EQ(error_of(with("cores_per_node = 64", "latency_ns = 5")),
            "m.machine:3: unknown key latency_ns");
}

TEST(MachineFile, RejectsRepeatedAndMissingKeys) {
  EXPECT_EQ(error_of(with("message_ns = 100", "message_ns = 100\nbyte_ns = 1")),
            "m.machine:12: [within] byte_ns is given twice");
  EXPECT_EQ(error_of(with("rendezvous_ns = 2000\n", "")),
            "m.machine:30: missing [between] rendezvous_ns");
  EXPECT_EQ(error_of(with("inline_bytes = 256\n", "")),
            "m.machine:30: missing [within] inline_bytes");
  EXPECT_EQ(error_of(with("spanning_latency_ns = 1200\n", "")),
            "m.machine:30: missing [within] spanning_latency_ns");
  EXPECT_EQ(error_of(""), "m.machine:0: missing name");
}

// The one optional key: an SpMV's multiply-add, 0 where left out, and
// checked as every other where given.
TEST(MachineFile, TheMultiplyAddMayBeLeftOut) {
  EXPECT_DOUBLE_EQ(parse_machine(kComplete, "m").multiply_add_ns, 0);
  const std::string given = with("injection_byte_ns = 0.04",
                                 "injection_byte_ns = 0.04\n"
                                 "multiply_add_ns = 3.5");
  const ortho::internal::Machine machine = parse_machine(given, "m");
  EXPECT_DOUBLE_EQ(machine.multiply_add_ns, 3.5);
  const ortho::internal::Machine again = parse_machine(
      ortho::internal::machine_file_text(machine, "again"), "again");
  EXPECT_DOUBLE_EQ(again.multiply_add_ns, 3.5);
  EXPECT_EQ(error_of(with("injection_byte_ns = 0.04",
                          "injection_byte_ns = 0.04\nmultiply_add_ns = -1")),
            "m.machine:32: [node] multiply_add_ns = -1 is negative");
  EXPECT_EQ(error_of(with("injection_byte_ns = 0.04",
                          "multiply_add_ns = 1\ninjection_byte_ns = 0.04\n"
                          "multiply_add_ns = 2")),
            "m.machine:33: [node] multiply_add_ns is given twice");
  EXPECT_EQ(error_of(with("[node]", "multiply_add_ns = 1\n[node]")),
            "m.machine:29: unknown key [between] multiply_add_ns");
}

TEST(MachineFile, ThePricePerPeerMayBeLeftOut) {
  const ortho::internal::Machine complete = parse_machine(kComplete, "m");
  EXPECT_DOUBLE_EQ(complete.within.peer_ns, 0);
  EXPECT_DOUBLE_EQ(complete.between.peer_ns, 0);
  std::string given =
      with("message_ns = 200", "message_ns = 200\npeer_ns = 7e3");
  given.replace(given.find("message_ns = 100"), 16,
                "message_ns = 100\npeer_ns = 25");
  const ortho::internal::Machine machine = parse_machine(given, "m");
  EXPECT_DOUBLE_EQ(machine.within.peer_ns, 25);
  EXPECT_DOUBLE_EQ(machine.between.peer_ns, 7000);
  EXPECT_DOUBLE_EQ(machine.between.message_ns, 200);
  const ortho::internal::Machine again = parse_machine(
      ortho::internal::machine_file_text(machine, "again"), "again");
  EXPECT_DOUBLE_EQ(again.within.peer_ns, 25);
  EXPECT_DOUBLE_EQ(again.between.peer_ns, 7000);
  EXPECT_EQ(error_of(with("message_ns = 100", "peer_ns = fast")),
            "m.machine:10: [within] peer_ns = 'fast' is not a finite number");
  EXPECT_EQ(error_of(with("message_ns = 200",
                          "message_ns = 200\npeer_ns = 1\npeer_ns = 1")),
            "m.machine:23: [between] peer_ns is given twice");
  EXPECT_EQ(error_of(with("injection_byte_ns = 0.04",
                          "injection_byte_ns = 0.04\npeer_ns = 1")),
            "m.machine:32: unknown key [node] peer_ns");
}

TEST(MachineFile, RejectsALineThatIsNotAnAssignment) {
  EXPECT_EQ(error_of(with("shared_cores = 0", "shared_cores 0")),
            "m.machine:4: 'shared_cores 0' is not 'key = value'");
}

// What machine_file_text writes, parse_machine reads back as it was.
TEST(MachineFile, TextReadsBackAsTheMachine) {
  const ortho::internal::Machine machine = parse_machine(kComplete, "m");
  const std::string text =
      ortho::internal::machine_file_text(machine, "two\nlines");
  EXPECT_EQ(text.rfind("# two\n# lines\nname = test cluster\n", 0), 0U) << text;
  const ortho::internal::Machine again = parse_machine(text, "again");
  EXPECT_EQ(again.name, "test cluster");
  EXPECT_EQ(again.cores_per_node, 64);
  EXPECT_DOUBLE_EQ(again.copy_byte_ns, 0.05);
  EXPECT_DOUBLE_EQ(again.within.receive_byte_ns, 0.09);
  EXPECT_DOUBLE_EQ(again.between.eager_bytes, 8192);
  EXPECT_DOUBLE_EQ(again.within.inline_bytes, 256);
  EXPECT_DOUBLE_EQ(again.injection_message_ns, 4.65);
  EXPECT_EQ(ortho::internal::machine_file_text(again, "two\nlines"), text);
}

TEST(MachineFile, NamesAFileThatCannotBeRead) {
  try {
    ortho::internal::load_machine("/nonexistent/x.machine");
    FAIL() << "no error";
  } catch (const MachineFileError& error) {
    EXPECT_EQ(std::string(error.what()),
              "/nonexistent/x.machine: cannot be read");
  }
}

}  // namespace
