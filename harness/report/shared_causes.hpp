// Which causes of different scenarios are one cause, so that the reports show it once with the
// scenarios it failed. One slip by a plugin often fails many scenarios the same way: a start-up
// banner on stdout is the first frame of every scenario, an initialize answer the handshake
// fragment refuses is the first answer of every scenario, a plugin that dies on start leaves the
// handshake of every scenario waiting. causes.hpp groups the failures of one scenario; this joins
// the groups of a run.
//
// Two groups are one cause when their roots have the same key (CauseKey), and the key is made of
// typed data only, never of a message (messages name frame numbers, ids and times, and may be
// reworded at will):
//  - the root's check, its reason (session/reason.hpp; plugin-exited and stdout-closed count as
//    one, since which of the two a session sees first is a race), its level and whether it is a
//    harness error;
//  - for a step: its kind, where it is written (file:line:col) and what it expected, so only a
//    step written once for many scenarios (a fragment's, such as the handshake) can be shared,
//    and only when it expected the same;
//  - the frame it is about: direction, kind, method, and its content: the bytes of a frame that
//    is not a whole message (a banner line, a bad header, a cut frame), or a message's members
//    other than its top-level `id`, each written compactly (an id differs from scenario to
//    scenario and is no part of what went wrong); the frame's index and time are left out;
//  - for a step that waited while the plugin went away: how the plugin exited on its own (code,
//    signal), if it did.
// A root with nothing of its own to compare (an always-on check that names no frame, a frame the
// result no longer holds or holds only summarised) has no key and is never shared. A cause is
// shared when its roots lie in at least two scenarios; a cause of one scenario is reported as
// before. Only scenarios that failed, warned or errored take part (an expected failure is
// reported in its own section).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/causes.hpp"
#include "harness/result/run_report.hpp"

namespace fakehost::report {

/// The key described above for the cause whose root is `root` (a failure of `r`); "" when that
/// root has nothing to compare and so is never shared.
std::string CauseKey(const result::ScenarioResult& r, const result::Failure& root);

/// A group of one scenario: the scenario's index in RunReport::scenarios, the group's index in
/// its GroupByCause, and the group's root (an index into that scenario's failures).
struct CauseRoot {
  std::size_t scenario = 0;
  std::size_t group = 0;
  std::size_t failure = 0;
};

/// A cause that failed at least two scenarios: its roots, one per group it covers, in the order
/// of the run (the scenarios' order, then the groups' order within a scenario).
struct SharedCause {
  std::vector<CauseRoot> roots;
  std::size_t scenarios = 0;  ///< how many distinct scenarios the roots lie in (at least 2)
};

/// The cause groups of every scenario of a run and which of them are shared. Holds indices into
/// `report`, which must outlive it unchanged.
class RunCauses {
 public:
  explicit RunCauses(const result::RunReport& report);

  /// The shared causes, in the order of their first root.
  const std::vector<SharedCause>& shared() const { return shared_; }
  /// GroupByCause of scenario `s`.
  const std::vector<CauseGroup>& groups(std::size_t s) const { return groups_[s]; }
  /// For group `g` of scenario `s`: the index into shared() of its cause, or nullopt when the
  /// cause is the scenario's own.
  std::optional<std::size_t> SharedOf(std::size_t s, std::size_t g) const {
    return shared_of_[s][g];
  }
  /// Whether scenario `s` has groups and every one of them is shared: its own entry in a report
  /// need only name the shared causes.
  bool AllShared(std::size_t s) const;

 private:
  std::vector<SharedCause> shared_;
  std::vector<std::vector<CauseGroup>> groups_;
  std::vector<std::vector<std::optional<std::size_t>>> shared_of_;
};

/// The worst status among the scenarios `cause` failed: error, else fail, else warn.
result::Status WorstStatus(const result::RunReport& report, const SharedCause& cause);
/// The ids of the scenarios `cause` failed, each once, in the run's order (pointers into
/// `report`).
std::vector<const std::string*> SharedScenarioIds(const result::RunReport& report,
                                                  const SharedCause& cause);

/// "cause 2 above (53 scenarios)": how a scenario's entry names a shared cause.
std::string SharedCauseRef(const RunCauses& causes, std::size_t index);

}  // namespace fakehost::report
