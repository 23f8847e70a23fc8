#include "harness/report/causes.hpp"

#include <algorithm>

namespace fakehost::report {
namespace {

using result::Failure;
using result::Reason;
using result::ScenarioResult;

bool IsStep(const Failure& f) { return f.check == "step"; }

// A step that waited and got nothing (no frame): the only kind of miss a root can explain.
bool WaitedInVain(const Failure& f) { return IsStep(f) && !f.harness_error && !f.frame; }

// An always-on check on a frame that is not a message at all: whatever else fired on that frame
// says the same thing again.
bool BrokenFrameCheck(const Failure& f) {
  return f.frame && !IsStep(f) && result::Info(f.reason).broken_frame;
}

// The first framing check that ended the connection (kFramingLost) or that met the end of stdout
// inside a frame (kCutShort: the plugin stopped in the middle of one).
std::optional<std::size_t> FramingCheck(const ScenarioResult& r, Reason reason) {
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    const Failure& f = r.failures[i];
    if (f.reason == reason && !IsStep(f) && f.frame && !f.harness_error) return i;
  }
  return std::nullopt;
}

struct Grouping {
  std::vector<std::optional<std::size_t>> parent;
  std::vector<Cause> cause;

  explicit Grouping(std::size_t n) : parent(n), cause(n, Cause::kOwn) {}
  // `members` all become consequences of `root` (or of members[0] when there is no root).
  void Join(std::optional<std::size_t> root, const std::vector<std::size_t>& members, Cause c) {
    if (members.empty()) return;
    std::size_t to = root ? *root : members.front();
    cause[to] = c;
    for (std::size_t m : members)
      if (m != to) parent[m] = to;
  }
};

Grouping Group(const ScenarioResult& r) {
  const std::vector<Failure>& fs = r.failures;
  Grouping g(fs.size());
  std::vector<std::size_t> lost, gone, limit;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const Failure& f = fs[i];
    if (!WaitedInVain(f)) continue;
    switch (result::Info(f.reason).ends) {
      case result::ReasonEnds::kConnection:
        lost.push_back(i);
        break;
      case result::ReasonEnds::kPlugin:
        // A step that found the plugin exited is grouped only when the result records the exit.
        if (f.reason != Reason::kPluginExited || r.exit.exited) gone.push_back(i);
        break;
      case result::ReasonEnds::kTime:
        limit.push_back(i);
        break;
      case result::ReasonEnds::kNothing:  // a step that simply timed out: nothing says why
        break;
    }
  }
  g.Join(lost.empty() ? std::nullopt : FramingCheck(r, Reason::kFramingLost), lost,
         Cause::kConnectionLost);
  // A plugin that stopped in the middle of a frame: the cut frame is how its end showed.
  g.Join(gone.empty() ? std::nullopt : FramingCheck(r, Reason::kCutShort), gone,
         Cause::kPluginGone);
  g.Join(std::nullopt, limit, Cause::kHardLimit);

  // The other always-on checks on a frame that is not a message: under the first broken-frame
  // check on it (itself not a consequence of anything).
  for (std::size_t i = 0; i < fs.size(); ++i) {
    if (!BrokenFrameCheck(fs[i]) || g.parent[i]) continue;
    for (std::size_t j = 0; j < fs.size(); ++j) {
      if (j == i || g.parent[j] || IsStep(fs[j]) || fs[j].harness_error ||
          fs[j].frame != fs[i].frame)
        continue;
      bool is_root =
          std::any_of(g.parent.begin(), g.parent.end(), [&](const auto& p) { return p == j; });
      if (is_root) continue;
      g.parent[j] = i;
      if (g.cause[i] == Cause::kOwn) g.cause[i] = Cause::kBrokenFrame;
    }
  }
  return g;
}

}  // namespace

std::vector<CauseGroup> GroupByCause(const ScenarioResult& r) {
  Grouping g = Group(r);
  const std::vector<Failure>& fs = r.failures;
  std::vector<CauseGroup> groups;
  std::vector<std::size_t> first;  // the smallest index in each group, for the order
  for (std::size_t i = 0; i < fs.size(); ++i) {
    if (g.parent[i]) continue;
    CauseGroup group{g.cause[i], i, {}};
    for (std::size_t j = 0; j < fs.size(); ++j)
      if (g.parent[j] == i) group.consequences.push_back(j);
    // Steps in the order they ran, then the always-on checks in the order they were listed.
    std::stable_sort(group.consequences.begin(), group.consequences.end(),
                     [&](std::size_t a, std::size_t b) {
                       bool sa = IsStep(fs[a]), sb = IsStep(fs[b]);
                       if (sa != sb) return sa;
                       return sa && fs[a].step < fs[b].step;
                     });
    std::size_t lowest = i;
    for (std::size_t j : group.consequences) lowest = std::min(lowest, j);
    first.push_back(lowest);
    groups.push_back(std::move(group));
  }
  std::vector<std::size_t> order(groups.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return first[a] < first[b]; });
  std::vector<CauseGroup> sorted;
  sorted.reserve(groups.size());
  for (std::size_t k : order) sorted.push_back(std::move(groups[k]));
  return sorted;
}

std::vector<std::optional<std::size_t>> CausedBy(const ScenarioResult& r) {
  return Group(r).parent;
}

std::string ConsequenceList(const ScenarioResult& r, const CauseGroup& group) {
  std::string out;
  for (std::size_t i : group.consequences) {
    const Failure& f = r.failures[i];
    if (!out.empty()) out += ", ";
    if (IsStep(f)) {
      out += "step " + std::to_string(f.step) + " " + f.step_kind;
      if (f.loc.line > 0)
        out += f.loc.file == r.loc.file || f.loc.file.empty()
                   ? " (line " + std::to_string(f.loc.line) + ")"
                   : " (" + f.loc.ToString() + ")";
    } else {
      out += f.check;
      if (f.frame) out += " (frame #" + std::to_string(*f.frame) + ")";
    }
  }
  return out;
}

}  // namespace fakehost::report
