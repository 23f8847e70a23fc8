#include "harness/certify/matrix.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "harness/certify/corpus.hpp"
#include "harness/report/excerpt.hpp"
#include "harness/run/shard.hpp"

namespace fakehost::certify {

using result::Status;

namespace {

constexpr std::size_t kCauseBytes = 300;

// One line: a cause is shown in a table cell, so newlines and tabs become spaces.
std::string OneLine(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return report::Clip(out, kCauseBytes);
}

}  // namespace

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kFail:
      return "fail";
    case Verdict::kError:
      return "error";
    case Verdict::kRefused:
      return "refused";
    case Verdict::kUnrunnable:
      return "unrunnable";
    case Verdict::kUntested:
      return "untested";
  }
  return "untested";
}

bool ParseVerdict(std::string_view name, Verdict* out) {
  for (Verdict v : {Verdict::kPass, Verdict::kFail, Verdict::kError, Verdict::kRefused,
                    Verdict::kUnrunnable, Verdict::kUntested})
    if (name == VerdictName(v)) return *out = v, true;
  return false;
}

bool IsFailing(Status s) { return s == Status::kFail || s == Status::kError; }
bool IsFailing(Verdict v) { return v != Verdict::kPass; }

Cell CellFor(const result::ScenarioResult& r, bool strict) {
  Cell c;
  c.status = r.status;
  c.duration_ms = r.duration_ms;
  if (result::WasJudged(r.status)) c.revision = r.revision;
  if (r.status == Status::kPass) return c;
  if (r.status == Status::kSkip || r.status == Status::kNotRun || r.status == Status::kUntested) {
    c.cause = OneLine(report::SkipReason(r));
    return c;
  }
  const result::Failure* f = report::Headline(r, strict);
  if (!f) return c;
  std::string head =
      f->check == "step" ? "step " + std::to_string(f->step) + " " + f->step_kind : f->check;
  c.cause = OneLine(head + ": " + f->message);
  if (f->loc.line > 0) c.location = f->loc.ToString();
  if (f->frame)
    c.location +=
        (c.location.empty() ? "" : ", ") + std::string("frame #") + std::to_string(*f->frame);
  return c;
}

void Grade(Row* row) {
  if (row->verdict == Verdict::kRefused || row->verdict == Verdict::kUnrunnable) return;
  bool errored = false, failed = false, checked = false;
  for (const auto& [id, c] : row->cells) {
    errored |= c.status == Status::kError;
    failed |= c.status == Status::kFail;
    checked |= c.status == Status::kPass || c.status == Status::kFail || c.status == Status::kWarn;
  }
  row->verdict = errored   ? Verdict::kError
                 : failed  ? Verdict::kFail
                 : checked ? Verdict::kPass
                           : Verdict::kUntested;
}

void Finish(Matrix* m) {
  std::map<std::string, int> seen;
  for (const Row& r : m->rows) ++seen[r.key];
  for (Row& r : m->rows)
    if (seen[r.key] > 1) r.key += " (" + r.dir + ")";
  std::sort(m->rows.begin(), m->rows.end(),
            [](const Row& a, const Row& b) { return a.key < b.key; });
  std::sort(m->columns.begin(), m->columns.end(),
            [](const Column& a, const Column& b) { return a.id < b.id; });
}

Diff Compare(const Matrix& previous, const Matrix& current) {
  Diff d;
  d.computed = true;
  // Rows match by key, else by directory: a key gains or loses its " (dir)" suffix when a
  // second plugin with the same id comes or goes.
  std::map<std::string, const Row*> by_key, by_dir;
  for (const Row& r : previous.rows) by_key[r.key] = &r, by_dir[r.dir] = &r;
  std::set<const Row*> matched;
  auto find = [&](const Row& r) -> const Row* {
    auto it = by_key.find(r.key);
    if (it != by_key.end()) return it->second;
    it = by_dir.find(r.dir);
    return it == by_dir.end() ? nullptr : it->second;
  };
  for (const Row& r : current.rows)
    if (const Row* old = find(r)) matched.insert(old);
  std::set<std::string> old_cols, new_cols;
  for (const Column& c : previous.columns) old_cols.insert(c.id);
  for (const Column& c : current.columns) new_cols.insert(c.id);
  for (const auto& c : new_cols)
    if (!old_cols.count(c)) d.scenarios_appeared.push_back(c);
  for (const auto& c : old_cols)
    if (!new_cols.count(c)) d.scenarios_vanished.push_back(c);
  for (const Row& r : previous.rows)
    if (!matched.count(&r)) d.plugins_vanished.push_back(r.key);

  for (const Row& r : current.rows) {
    const Row* old = find(r);
    if (!old) d.plugins_appeared.push_back(r.key);
    std::string verdict_before = old ? VerdictName(old->verdict) : "";
    if (IsFailing(r.verdict) && (!old || !IsFailing(old->verdict)))
      d.newly_failing.push_back({r.key, "", verdict_before, VerdictName(r.verdict)});
    if (old && !IsFailing(r.verdict) && IsFailing(old->verdict))
      d.newly_passing.push_back({r.key, "", verdict_before, VerdictName(r.verdict)});
    for (const auto& [id, cell] : r.cells) {
      const Cell* was = nullptr;
      if (old) {
        auto c = old->cells.find(id);
        if (c != old->cells.end()) was = &c->second;
      }
      std::string b = was ? result::StatusName(was->status) : "";
      std::string a = result::StatusName(cell.status);
      if (IsFailing(cell.status) && (!was || !IsFailing(was->status)))
        d.newly_failing.push_back({r.key, id, b, a});
      // Newly passing: it failed, and now it passes or warns (not merely "not run").
      if (was && IsFailing(was->status) &&
          (cell.status == Status::kPass || cell.status == Status::kWarn))
        d.newly_passing.push_back({r.key, id, b, a});
    }
  }
  return d;
}

Totals Count(const Matrix& m) {
  Totals t;
  for (const Row& r : m.rows) {
    ++t.plugins;
    ++(IsFailing(r.verdict) ? t.failing : t.passing);
    if (r.frames_rejected > 0) ++t.rejected_by_candidate;
    for (const auto& [id, c] : r.cells) ++t.cells[c.status];
  }
  return t;
}

int ExitCode(const Matrix& m) {
  Totals t = Count(m);
  if (t.rejected_by_candidate > 0) return 1;
  if (m.diff.computed) return m.diff.newly_failing.empty() ? 0 : 1;
  return t.failing > 0 ? 1 : 0;
}

bool Merge(std::vector<Matrix> parts, const std::vector<std::string>& sources, bool allow_partial,
           Matrix* out, std::string* error) {
  if (parts.empty()) {
    *error = "nothing to merge";
    return false;
  }
  std::vector<run::ShardPart> shards;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    run::ShardPart s{sources[i], 0, 0};
    std::string ignored;
    if (!parts[i].shard.empty() && !ParseShard(parts[i].shard, &s.index, &s.count, &ignored))
      s = {sources[i], 0, 0};
    shards.push_back(s);
  }
  std::vector<int> missing;
  *error = run::CheckShardParts(shards, allow_partial, &missing);
  if (!error->empty()) return false;
  Matrix m = std::move(parts.front());
  m.missing_shards = std::move(missing);
  m.shard.clear();
  m.diff = {};
  std::set<std::string> dirs, cols;
  for (const Row& r : m.rows) dirs.insert(r.dir);
  for (const Column& c : m.columns) cols.insert(c.id);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    Matrix& p = parts[i];
    if (p.protocol != m.protocol) {
      *error = "cannot merge a " + p.protocol + " matrix into a " + m.protocol + " one";
      return false;
    }
    if (p.suite != m.suite || p.tool_version != m.tool_version) {
      *error = sources[i] + " is of another run: suite " + p.suite + " (fakehost " +
               p.tool_version + ") vs " + m.suite + " (fakehost " + m.tool_version + ")";
      return false;
    }
    if (p.candidate != m.candidate) {
      *error = "the matrices were checked against different candidate schemas (" + m.candidate +
               ", " + p.candidate + ")";
      return false;
    }
    for (Column& c : p.columns)
      if (cols.insert(c.id).second) m.columns.push_back(std::move(c));
    for (Row& r : p.rows) {
      if (!dirs.insert(r.dir).second) {
        *error = "plugin " + r.dir + " is in more than one of the matrices";
        return false;
      }
      m.rows.push_back(std::move(r));
    }
    m.duration_ms = std::max(m.duration_ms, p.duration_ms);  // shards run side by side
    m.started_at = std::min(m.started_at, p.started_at);
  }
  // Keys were made unique per shard: strip the suffix, then make them unique again.
  for (Row& r : m.rows) r.key = r.id.empty() ? r.dir : r.id;
  Finish(&m);
  *out = std::move(m);
  return true;
}

std::string RevisionsJudged(const Row& r) {
  std::map<std::string, std::pair<int, int>> by;  // revision -> (judged, failing)
  for (const auto& [id, c] : r.cells)
    if (!c.revision.empty()) {
      ++by[c.revision].first;
      by[c.revision].second += IsFailing(c.status);
    }
  std::string out;
  for (const auto& [revision, n] : by)
    out += (out.empty() ? "" : "; ") + revision + ": " + std::to_string(n.first) + " judged, " +
           std::to_string(n.second) + " failing";
  return out;
}

}  // namespace fakehost::certify
