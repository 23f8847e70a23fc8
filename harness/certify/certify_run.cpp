#include "harness/certify/certify_run.hpp"

#include <algorithm>
#include <chrono>
#include <tuple>

#include "harness/certify/revalidate.hpp"
#include "harness/run/manifest_scenario.hpp"

namespace fakehost::certify {
namespace {

Column ColumnOf(const scenario::Scenario& s) { return {s.id, s.title, s.spec, s.requirement}; }

// A finished scenario into its row: the cell, and what the candidate schema rejects of it.
void Add(const CertifyRequest& q, const result::ScenarioResult& r, Row* row) {
  // The manifest check is graded as it is, whatever --strict says of scenarios.
  row->cells[r.id] = CellFor(r, r.id != run::kManifestScenarioId && q.run.strict);
  if (!q.candidate) return;
  RevalidationCounts counts;
  RevalidateTranscript(
      *q.candidate, r.transcript,
      [&](const RejectedFrame& f) {
        if (row->rejections.size() >= q.rejections_kept) return;
        Rejection x{r.id, f.index, f.from_plugin, f.def, {}};
        for (const auto& v : f.violations) x.violations.emplace_back(v.pointer, v.message);
        row->rejections.push_back(std::move(x));
      },
      &counts);
  row->frames_checked += counts.checked;
  row->frames_rejected += counts.rejected;
  row->frames_unchecked += counts.unchecked;
}

// The row's verdict once its last cell is in.
void Close(const run::PluginRun& p, Row* row) {
  row->id = p.info.id;
  row->version = p.info.version;
  row->probe = p.info.probe;
  row->key = row->id.empty() ? row->dir : row->id;
  switch (p.state) {
    case run::PluginState::kReady:
      Grade(row);
      break;
    case run::PluginState::kRefused:
      row->verdict = Verdict::kRefused;
      row->detail = std::to_string(p.manifest_problems) + " manifest problem" +
                    (p.manifest_problems == 1 ? "" : "s") + ": " +
                    row->cells[run::kManifestScenarioId].cause;
      break;
    case run::PluginState::kUnrunnable:
      row->verdict = Verdict::kUnrunnable;
      row->detail = p.detail;
      break;
  }
  std::sort(row->rejections.begin(), row->rejections.end(),
            [](const Rejection& a, const Rejection& b) {
              return std::tie(a.scenario, a.frame) < std::tie(b.scenario, b.frame);
            });
}

}  // namespace

CertifyOutcome Certify(const CertifyRequest& request) {
  CertifyOutcome out;
  Matrix& m = out.matrix;
  m.rows.resize(request.dirs.size());
  for (std::size_t i = 0; i < request.dirs.size(); ++i) m.rows[i].dir = request.dirs[i];
  run::RunRequest q = request.run;
  q.corpus = true;
  q.plugins.clear();
  for (const std::string& dir : request.dirs) q.plugins.push_back({dir, {}, {}, {}, {}});
  bool manifest_shown = false;
  auto t0 = std::chrono::steady_clock::now();
  q.on_start = [&](const run::RunPlan& plan) {
    m.tool_version = plan.report.tool_version;
    m.protocol = plan.report.protocol;
    m.suite = plan.report.suite;
    m.started_at = plan.report.started_at;
    m.jobs = plan.report.jobs;
    manifest_shown = plan.manifest != nullptr;
    if (plan.manifest) m.columns.push_back(ColumnOf(*plan.manifest));
    for (const scenario::Scenario* s : plan.selected) m.columns.push_back(ColumnOf(*s));
    if (request.on_start) request.on_start(m);
    t0 = std::chrono::steady_clock::now();
  };
  q.on_result = [&](const run::PluginRun& p, const result::ScenarioResult& r) {
    Add(request, r, &m.rows[p.index]);
  };
  q.on_plugin = [&](const run::PluginRun& p) {
    Close(p, &m.rows[p.index]);
    if (request.on_row) request.on_row(m.rows[p.index]);
  };
  run::RunOutcome run = run::Execute(q);
  out.exit_code = run.exit_code;
  if (run.exit_code == run::kBadInput) return out;
  // A refused manifest is shown even when --only left its column out.
  bool refused = std::any_of(m.rows.begin(), m.rows.end(), [](const Row& r) {
    return r.cells.count(run::kManifestScenarioId) > 0;
  });
  if (refused && !manifest_shown)
    m.columns.push_back(ColumnOf(run::ManifestScenario(*request.run.profile)));
  m.duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace fakehost::certify
