#include "harness/certify/certify_run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>

#include "harness/certify/revalidate.hpp"
#include "harness/json/json.hpp"
#include "harness/plugin/manifest.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/run/runner.hpp"

namespace fakehost::certify {
namespace {

using scenario::Status;

// A plugin as the pool sees it: resolved once, then played by many workers at once.
struct Plugin {
  Row row;
  scenario::PluginTarget target;
  bool runnable = false;
  std::size_t remaining = 0;  ///< work items not finished yet (under the pool's mutex)
};

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// The manifest check, then the spawn spec: what the row is before anything runs.
void Prepare(const std::string& dir, const std::vector<const scenario::Scenario*>& selected,
             const protocol::Profile& profile, const CertifyOptions& options, Plugin* p) {
  Row& row = p->row;
  row.dir = dir;
  auto t0 = std::chrono::steady_clock::now();
  plugin::ManifestCheck check = plugin::CheckManifest(profile, dir);
  auto not_run = [&](const std::string& why) {
    for (const scenario::Scenario* s : selected) {
      Cell c;
      c.status = Status::kNotRun;
      c.cause = why;
      row.cells[s->id] = std::move(c);
    }
  };
  if (!check.readable) {
    row.verdict = Verdict::kUnrunnable;
    row.detail = FirstLine(check.error);
    not_run("not run: the plugin cannot be run");
    return;
  }
  if (check.manifest) {
    auto text = [&](const std::string& pointer) {
      const rapidjson::Value* v =
          pointer.empty() ? nullptr : json::Resolve(*check.manifest, pointer);
      return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : "";
    };
    row.id = text(profile.manifest().id);
    row.version = text(profile.manifest().version);
  }
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (options.manifest_selected || !check.loads)
    row.cells[run::kManifestScenarioId] = CellFor(run::ManifestResult(profile, check, ms), false);
  if (!check.loads) {
    row.verdict = Verdict::kRefused;
    row.detail = std::to_string(check.problems.size()) + " manifest problem" +
                 (check.problems.size() == 1 ? "" : "s") + ": " +
                 row.cells[run::kManifestScenarioId].cause;
    not_run(std::string("not run: its host refuses this plugin's manifest (see ") +
            run::kManifestScenarioId + ")");
    return;
  }
  std::string error;
  if (!run::ResolvePlugin(profile, {dir, {}, {}, {}, {}}, &p->target, &error)) {
    row.verdict = Verdict::kUnrunnable;
    row.detail = FirstLine(error);
    not_run("not run: the plugin cannot be run");
    return;
  }
  p->target.spawn.limits = options.limits;
  row.id = p->target.id;
  row.version = p->target.version;
  p->runnable = true;
  p->remaining = selected.size();
}

// Plays one scenario and reduces it to what the matrix keeps (the cell, the rejections).
void PlayOne(const scenario::Scenario& s, const protocol::Profile& profile,
             const schema::FrameSchema* schema, const CertifyOptions& options, const Plugin& p,
             Cell* cell, RevalidationCounts* counts, std::vector<RejectedFrame>* rejected) {
  // Not run once interrupted; not applicable to a plugin its host never spawns (a manifest-only
  // one, whose row then passes on manifest/loads-in-host alone); an exception is an error cell.
  scenario::ScenarioResult r = run::PlayScenario(s, profile, schema, p.target, options.play);
  *cell = CellFor(r, options.play.strict);
  if (options.candidate)
    RevalidateTranscript(
        *options.candidate, r.transcript,
        [&](const RejectedFrame& f) {
          if (rejected->size() < options.rejections_kept) rejected->push_back(f);
        },
        counts);
}

}  // namespace

// Over 60 lines: the pool's set-up, its workers and the rows' completion, which share state.
std::vector<Row> Certify(const std::vector<std::string>& dirs,
                         const std::vector<const scenario::Scenario*>& selected,
                         const protocol::Profile& profile, const schema::FrameSchema* schema,
                         const CertifyOptions& options,
                         const std::function<void(const Row&)>& on_row) {
  // Plugins are resolved as the pool reaches them, not all up front: a resolved plugin holds
  // its parsed manifest and environment (a RapidJSON document alone takes a 64 KiB chunk), so
  // only the few in flight may hold one.
  std::vector<std::unique_ptr<Plugin>> plugins(dirs.size());
  std::size_t next_plugin = 0, next_scenario = 0;  // the cursor, under `mutex`
  std::mutex mutex;
  auto next = [&](std::size_t* pi, std::size_t* si) {
    while (next_plugin < dirs.size()) {
      std::unique_ptr<Plugin>& p = plugins[next_plugin];
      if (!p) {
        p = std::make_unique<Plugin>();
        Prepare(dirs[next_plugin], selected, profile, options, p.get());
        p->row.key = p->row.id.empty() ? p->row.dir : p->row.id;
        if (!p->runnable || selected.empty()) {
          if (p->runnable) Grade(&p->row);
          on_row(p->row);
          ++next_plugin;
          continue;
        }
      }
      *pi = next_plugin;
      *si = next_scenario++;
      if (next_scenario == selected.size()) ++next_plugin, next_scenario = 0;
      return true;
    }
    return false;
  };

  auto worker = [&] {
    for (;;) {
      std::size_t pi = 0, si = 0;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (!next(&pi, &si)) return;
      }
      Plugin& p = *plugins[pi];
      const scenario::Scenario& s = *selected[si];
      Cell cell;
      RevalidationCounts counts;
      std::vector<RejectedFrame> rejected;
      PlayOne(s, profile, schema, options, p, &cell, &counts, &rejected);
      std::lock_guard<std::mutex> lock(mutex);
      Row& row = p.row;
      row.cells[s.id] = std::move(cell);
      row.frames_checked += counts.checked;
      row.frames_rejected += counts.rejected;
      row.frames_unchecked += counts.unchecked;
      for (auto& f : rejected) {
        if (row.rejections.size() >= options.rejections_kept) break;
        Rejection x{s.id, f.index, f.from_plugin, std::move(f.def), {}};
        for (auto& v : f.violations)
          x.violations.emplace_back(std::move(v.pointer), std::move(v.message));
        row.rejections.push_back(std::move(x));
      }
      if (--p.remaining == 0) {
        Grade(&row);
        std::sort(row.rejections.begin(), row.rejections.end(),
                  [](const Rejection& a, const Rejection& b) {
                    return std::tie(a.scenario, a.frame) < std::tie(b.scenario, b.frame);
                  });
        on_row(row);
        p.target = {};  // its environment and manifest are not needed any more
      }
    }
  };
  std::size_t jobs =
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)), 1,
                              std::max<std::size_t>(dirs.size() * selected.size(), 1));
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  std::vector<Row> rows;
  rows.reserve(plugins.size());
  for (auto& p : plugins) rows.push_back(std::move(p->row));
  return rows;
}

}  // namespace fakehost::certify
