// The case a test is running, for the hang report (hang_watchdog.h): a
// differential test sets it to what reproduces the case (graph seed,
// operation, mode, algorithm); a process that hangs prints the label it
// saw last. Setting it is cheap (a copy into a fixed buffer) and safe to
// read from the watchdog at any time.
#ifndef ORTHOCOMM_TESTS_HARNESS_CASE_LABEL_H_
#define ORTHOCOMM_TESTS_HARNESS_CASE_LABEL_H_

#include <string>
#include <string_view>

namespace orthocomm_test {

// Replaces the label ("" clears it); longer labels are cut at 511 bytes.
void set_case_label(std::string_view label);

// The label set last.
std::string case_label();

// Sets the label for a scope and clears it at the end.
class CaseLabel {
 public:
  explicit CaseLabel(std::string_view label) { set_case_label(label); }
  ~CaseLabel() { set_case_label(""); }
  CaseLabel(const CaseLabel&) = delete;
  CaseLabel& operator=(const CaseLabel&) = delete;
};

}  // namespace orthocomm_test

#endif  // ORTHOCOMM_TESTS_HARNESS_CASE_LABEL_H_
