#include "harness/report/causes.hpp"

#include <algorithm>
#include <string_view>

namespace fakehost::report {
namespace {

using scenario::Failure;
using scenario::ScenarioResult;

// Why a step stopped waiting, in the words of Session::GoneReason and the interpreter's misses.
constexpr std::string_view kFramingLost = "the framing was lost, so the connection is over";
constexpr std::string_view kPluginExited = "the plugin exited (";
constexpr std::string_view kAlreadyExited = "the plugin had already exited (";
constexpr std::string_view kClosedStdout = "the plugin closed its stdout";
constexpr std::string_view kHardLimit = "the scenario reached its hard limit of ";

// The always-on checks that say a frame is not a message at all: whatever else fired on that
// frame says the same thing again.
constexpr std::string_view kBrokenFrameChecks[] = {"framing", "not-json", "invalid-envelope"};

bool Says(const Failure& f, std::string_view phrase) {
  return f.message.find(phrase) != std::string::npos;
}

// A step that waited and got nothing (no frame): the only kind of miss a root can explain.
bool WaitedInVain(const Failure& f) { return f.check == "step" && !f.harness_error && !f.frame; }

bool BrokenFrameCheck(const Failure& f) {
  return f.frame && std::find(std::begin(kBrokenFrameChecks), std::end(kBrokenFrameChecks),
                              f.check) != std::end(kBrokenFrameChecks);
}

// The first framing check on a frame that was cut short by the end of stdout (`truncated`:
// the plugin stopped in the middle of a frame), or on one that was not (the framing was lost and
// the connection ended; an entry past a full transcript counts as that).
std::optional<std::size_t> FramingCheck(const ScenarioResult& r, bool truncated) {
  for (std::size_t i = 0; i < r.failures.size(); ++i) {
    const Failure& f = r.failures[i];
    if (f.check != "framing" || !f.frame || f.harness_error) continue;
    bool cut = *f.frame < r.transcript.size() &&
               r.transcript[*f.frame].kind == session::EntryKind::kTruncated;
    if (cut == truncated) return i;
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
    if (Says(f, kFramingLost))
      lost.push_back(i);
    else if ((r.exit.exited && (Says(f, kPluginExited) || Says(f, kAlreadyExited))) ||
             Says(f, kClosedStdout))
      gone.push_back(i);
    else if (Says(f, kHardLimit))
      limit.push_back(i);
  }
  g.Join(lost.empty() ? std::nullopt : FramingCheck(r, false), lost, Cause::kConnectionLost);
  // A plugin that stopped in the middle of a frame: the cut frame is how its end showed.
  g.Join(gone.empty() ? std::nullopt : FramingCheck(r, true), gone, Cause::kPluginGone);
  g.Join(std::nullopt, limit, Cause::kHardLimit);

  // The other always-on checks on a frame that is not a message: under the first broken-frame
  // check on it (itself not a consequence of anything).
  for (std::size_t i = 0; i < fs.size(); ++i) {
    if (!BrokenFrameCheck(fs[i]) || g.parent[i]) continue;
    for (std::size_t j = 0; j < fs.size(); ++j) {
      if (j == i || g.parent[j] || fs[j].check == "step" || fs[j].harness_error ||
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
                       bool sa = fs[a].check == "step", sb = fs[b].check == "step";
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
    if (f.check == "step") {
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
