#include "harness/run/execute.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string_view>
#include <thread>

#include "harness/json/json.hpp"
#include "harness/plugin/manifest.hpp"
#include "harness/process/child.hpp"
#include "harness/run/derive.hpp"
#include "harness/run/expected_failures.hpp"
#include "harness/run/manifest_scenario.hpp"
#include "harness/run/probe.hpp"
#include "harness/run/sdk_traits.hpp"
#include "harness/run/shard.hpp"
#include "harness/run/suite_version.hpp"
#include "harness/run/verdict.hpp"
#include "harness/scenario/duration.hpp"
#include "harness/schema/schema.hpp"

namespace fakehost::run {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Discards what a request without `err` would be told.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
};

// A plugin as the pool holds it: prepared once, then played by many workers at once.
struct PluginSlot {
  PluginRun run;
  interpreter::PluginTarget target;
  /// Handed out before the plugin's first play: the manifest check's result, and the not-run
  /// results of a plugin that is not played.
  std::vector<result::ScenarioResult> head;
  /// The played results (one plugin only), slot s * repeat + k for play k of scenario s.
  std::vector<result::ScenarioResult> played;
  std::vector<InstalledSdk> sdks;  ///< SDKs of the profile's traits installed for it
  bool prepared = false, delivered = false;
  std::size_t remaining = 0;  ///< plays not finished yet (under the report lock)
};

// Everything a run settles before it plays, in the order it is settled.
struct Settled {
  /// The frame schemas of the revisions that have their own, loaded once (PlayOptions holds
  /// the map of pointers).
  std::vector<std::unique_ptr<schema::FrameSchema>> revision_schema_files;
  std::map<std::string, const schema::FrameSchema*> revision_schemas;
  std::vector<std::string> suites;
  std::vector<scenario::Scenario> scenarios;  ///< every scenario of the suites
  std::vector<const scenario::Scenario*> selected;
  std::set<std::string> triggers_sent;     ///< by the selected scenarios (TriggersSent)
  std::vector<SdkTrait> sdk_traits;        ///< the profile's (sdk_traits.hpp)
  std::vector<std::string> fragment_dirs;  ///< the standard suite's and the profile's fragments
  int shard = 0, shards = 0;               ///< 0: not sharded
  bool manifests = false;  ///< the plugins are directories: manifest/loads-in-host heads
  bool manifest_selected = false;
  ExpectedFailures baseline;
  ApplyOptions expect;
  process::Limits limits;
  interpreter::PlayOptions play;
  int jobs = 1;
};

// The suites loaded, the scenarios selected, and this shard's share of them. False (with the
// message on `err`) for bad input.
bool SelectScenarios(const RunRequest& q, std::ostream& err, Settled* s) {
  const protocol::Profile& profile = *q.profile;
  s->suites = SuiteDirs(q.suites, q.standard_suite);
  std::vector<std::string> errors;
  if (!LoadSuites(s->suites, q.standard_suite, profile, &s->scenarios, &errors)) {
    for (const auto& e : errors) err << e << "\n";
    err << "fakehost: the suite has errors; nothing was run\n";
    return false;
  }
  // manifest/loads-in-host heads the suite of plugins that have a manifest: it is played here,
  // before anything is spawned, not by the interpreter.
  s->manifests =
      profile.has_manifest() && std::any_of(q.plugins.begin(), q.plugins.end(),
                                            [](const PluginSpec& p) { return !p.dir.empty(); });
  if (s->manifests) s->scenarios.insert(s->scenarios.begin(), ManifestScenario(profile));
  s->selected = Select(s->scenarios, q.selection);
  if (s->selected.empty()) {
    err << "fakehost: no scenario selected (" << s->scenarios.size() << " in " << s->suites.front()
        << "); check " << q.selection_flags << "\n";
    return false;
  }
  // A shard plays its part of the selection; the manifest check, and a refused manifest's
  // report, belong to shard 1 alone, so that merged shards count it once.
  if (s->shards > 0) {
    std::size_t all = s->selected.size();
    s->selected = Shard(s->selected, s->shard, s->shards);
    if (s->selected.empty())
      err << "fakehost: shard " << q.shard << " holds none of the " << all
          << " selected scenarios (more shards than scenarios)\n";
  }
  s->manifest_selected =
      s->manifests && !s->selected.empty() && s->selected.front() == &s->scenarios.front();
  if (s->manifest_selected) s->selected.erase(s->selected.begin());
  s->triggers_sent = TriggersSent(s->selected);
  return true;
}

// --revision checked against the profile, and the frame schemas of the revisions that have
// their own loaded.
bool LoadRevisions(const RunRequest& q, std::ostream& err, Settled* s) {
  const protocol::Profile& profile = *q.profile;
  const protocol::Revisions* revisions = profile.revisions();
  if (!q.revision.empty()) {
    if (!revisions || !revisions->Knows(q.revision)) {
      err << "fakehost: --revision " << q.revision << ": "
          << (revisions ? "the " + profile.name() + " profile knows " + revisions->KnownList()
                        : "the " + profile.name() + " profile has no revisions")
          << "\n";
      return false;
    }
    s->play.revision = q.revision;
  }
  if (!revisions) return true;
  std::string error;
  for (const protocol::Revision& r : revisions->known) {
    if (r.schema_path.empty()) continue;
    auto loaded = schema::FrameSchema::Load(r.schema_path, &error);
    if (!loaded) {
      err << "fakehost: revision " << r.name << ": " << error << "\n";
      return false;
    }
    s->revision_schemas[r.name] = loaded.get();
    s->revision_schema_files.push_back(std::move(loaded));
  }
  s->play.revision_schemas = &s->revision_schemas;
  return true;
}

// The shard, the suites, the selection, the baseline, the limits and the timeout. False (with
// the message on `err`) for bad input.
bool Settle(const RunRequest& q, std::ostream& err, Settled* s) {
  const protocol::Profile& profile = *q.profile;
  std::string error;
  if (!q.shard.empty() && !ParseShard(q.shard, &s->shard, &s->shards, &error)) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  if (!SelectScenarios(q, err, s)) return false;
  if (!LoadSdkTraits(profile.dir(), &s->sdk_traits, &error)) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  for (const std::string& dir : {q.standard_suite, profile.dir()})
    if (!dir.empty()) s->fragment_dirs.push_back(dir + "/fragments");
  s->expect = {q.strict, TodayUtc()};
  std::vector<scenario::LoadError> baseline_errors;
  if (!q.expected_failures.empty() &&
      !LoadExpectedFailures(q.expected_failures, s->scenarios, &s->baseline, &baseline_errors)) {
    for (const auto& e : baseline_errors) err << e.ToString() << "\n";
    err << "fakehost: " << q.expected_failures << " has errors; nothing was run\n";
    return false;
  }
  if (!PluginLimits(profile, q.limits, &s->limits, &error)) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  s->play.strict = q.strict;
  if (!LoadRevisions(q, err, s)) return false;
  s->play.interrupted = q.interrupted;
  s->play.spawn = q.spawn;
  if (!q.timeout.empty() && !scenario::ParseDuration(q.timeout, &s->play.timeout, &error)) {
    err << "fakehost: --timeout: " << error << "\n";
    return false;
  }
  s->jobs = q.jobs > 0 ? q.jobs : DefaultJobs();
  return true;
}

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

void NotRun(const Settled& s, const std::string& reason, PluginSlot* e) {
  for (const scenario::Scenario* sc : s.selected) {
    result::ScenarioResult r = scenario::ResultFor(*sc, result::Status::kNotRun);
    r.skip_reason = reason;
    e->head.push_back(std::move(r));
  }
}

// A plugin that cannot be run: bad input for a run of one (false, the message on `err`), the
// plugin's state in a corpus.
bool Unrunnable(const RunRequest& q, const Settled& s, const std::string& error, std::ostream& err,
                PluginSlot* e) {
  if (!q.corpus) {
    err << "fakehost: " << error << "\n";
    return false;
  }
  e->run.state = PluginState::kUnrunnable;
  e->run.detail = FirstLine(error);
  NotRun(s, "the plugin cannot be run", e);
  return true;
}

// A readable manifest's findings on the plugin: how many problems, its id and version, and the
// manifest check's result when this run reports it.
void RecordManifest(const protocol::Profile& profile, const Settled& s,
                    const plugin::ManifestCheck& check, Clock::time_point t0, PluginSlot* e) {
  PluginRun& run = e->run;
  run.manifest_problems = check.problems.size();
  if (check.manifest) {
    auto text = [&](const std::string& pointer) {
      const rapidjson::Value* v =
          pointer.empty() ? nullptr : json::Resolve(*check.manifest, pointer);
      return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
    };
    run.info.id = text(profile.manifest().id);
    run.info.version = text(profile.manifest().version);
  }
  if (s.manifest_selected || (!check.loads && s.shard <= 1))
    e->head.push_back(ManifestResult(profile, check, MsSince(t0)));
}

// A refused manifest whose entrypoint is missing or not executable (and not outside the plugin):
// a plugin that cannot be run at all, not only one its host refuses.
bool EntrypointCannotRun(const plugin::ManifestCheck& check) {
  auto refused_for = [&](std::string_view rule) {
    return std::any_of(check.problems.begin(), check.problems.end(),
                       [&](const plugin::ManifestProblem& m) { return m.rule == rule; });
  };
  return !refused_for("entrypoint-inside") &&
         (refused_for("entrypoint-exists") || refused_for("entrypoint-executable"));
}

// The manifest as the real host reads it, then the plugin to spawn. A refused manifest is the
// plugin's failure (nothing else runs, since its host would never start it); in a run of one
// plugin, an entrypoint that cannot be run is bad input (exit 2, nothing to run), even where the
// manifest check lists it.
bool Prepare(const RunRequest& q, const Settled& s, const PluginSpec& spec, std::ostream& err,
             PluginSlot* e) {
  const protocol::Profile& profile = *q.profile;
  PluginRun& run = e->run;
  e->prepared = true;
  plugin::ManifestCheck check;
  const bool has_manifest = !spec.dir.empty() && profile.has_manifest();
  if (has_manifest) {
    auto t0 = Clock::now();
    check = plugin::CheckManifest(profile, spec.dir);
    if (!check.readable) return Unrunnable(q, s, check.error, err, e);
    RecordManifest(profile, s, check, t0, e);
  }
  const bool refused = has_manifest && !check.loads;
  const bool unrunnable = refused && !q.corpus && EntrypointCannotRun(check);
  const std::string refusal =
      std::string("its host refuses this plugin's manifest (see ") + kManifestScenarioId + ")";
  if (refused && !unrunnable) {
    run.state = PluginState::kRefused;
    run.info.dir = spec.dir;
    NotRun(s, refusal, e);
    return true;
  }
  std::string error;
  if (!ResolvePlugin(profile, spec, &e->target, &error, q.schema))
    return Unrunnable(q, s, error, err, e);
  e->target.spawn.limits = s.limits;
  if (!refused) {
    ProbeRevisions(profile, q.schema, s.play, &e->target);
    DeriveTriggers(profile, q.schema, s.play, s.fragment_dirs, s.triggers_sent, &e->target);
    e->sdks = FindInstalledSdks(s.sdk_traits, {e->target.dir, e->target.spawn.cwd});
  }
  run.info = {e->target.id,
              e->target.version,
              e->target.dir,
              e->target.spawn.argv,
              e->target.never_spawned,
              e->target.probe.summary,
              e->target.derived.summary};
  if (refused) {
    run.state = PluginState::kRefused;
    NotRun(s, refusal, e);
  }
  return true;
}

// The order the scenarios of a plugin start in, as indices into `selected`: with more than one
// job, longest expected first (EstimatedCostMs, the shards' cost model; ties in suite order), so
// that the waits the protocol imposes overlap instead of one long scenario starting last. One
// job plays them in suite order: the total is the same, and the console reads as the suite.
std::vector<std::size_t> PlayOrder(const std::vector<const scenario::Scenario*>& selected,
                                   int jobs) {
  std::vector<std::size_t> order(selected.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (jobs <= 1) return order;
  std::vector<double> cost(selected.size());
  for (std::size_t i = 0; i < selected.size(); ++i) cost[i] = EstimatedCostMs(*selected[i]);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  return order;
}

// Plays every (plugin, scenario, repeat) item, `jobs` at a time, in plugin order: at most about
// `jobs` plugins are in flight, and a plugin is finished (handed to on_plugin) as soon as its
// last play ends. Workers pull items from one cursor (Next); results go out under one lock.
class Pool {
 public:
  Pool(const RunRequest& q, const Settled& s, std::ostream& err, std::vector<PluginSlot>* entries)
      : q_(q),
        s_(s),
        err_(err),
        entries_(*entries),
        n_(s.selected.size()),
        order_(PlayOrder(s.selected, s.jobs)),
        repeat_(static_cast<std::size_t>(std::max(1, q.repeat))),
        items_(n_ * repeat_) {}

  // The number of results that were errors.
  int Run() {
    std::size_t jobs = std::clamp<std::size_t>(static_cast<std::size_t>(s_.jobs), 1,
                                               std::max<std::size_t>(entries_.size() * items_, 1));
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < jobs; ++t) threads.emplace_back([this] { Work(); });
    Work();
    for (auto& t : threads) t.join();
    return errored_;
  }

 private:
  void Show(PluginSlot& e, result::ScenarioResult* r) {  // under report_mutex_
    ShowSdkTrait(s_.sdk_traits, e.sdks, r);
    ApplyExpectedFailures(s_.baseline, s_.expect, r);
    errored_ += r->status == result::Status::kError;
    if (q_.on_result) q_.on_result(e.run, *r);
  }

  void Finish(PluginSlot& e) {  // under report_mutex_
    if (q_.on_plugin) q_.on_plugin(e.run);
    if (q_.corpus) e.target = {};  // its manifest and environment are not needed any more
  }

  // A plugin's first turn: prepared, its head results shown, its plays counted. False when it
  // has nothing to play (it is finished then). Under cursor_mutex_.
  bool Deliver(std::size_t pi) {
    PluginSlot& e = entries_[pi];
    if (!e.prepared) Prepare(q_, s_, q_.plugins[pi], err_, &e);  // a corpus: never false
    std::lock_guard<std::mutex> lock(report_mutex_);
    e.delivered = true;
    for (result::ScenarioResult& r : e.head) Show(e, &r);
    if (q_.corpus) e.head.clear();
    e.remaining = e.run.state == PluginState::kReady ? items_ : 0;
    e.played.resize(q_.corpus ? 0 : e.remaining);
    if (e.remaining > 0) return true;
    Finish(e);
    return false;
  }

  // The next item to play: its plugin and its index (scenario and repeat). Under cursor_mutex_.
  bool Next(std::size_t* pi, std::size_t* ii) {
    while (next_plugin_ < entries_.size()) {
      if (!entries_[next_plugin_].delivered && !Deliver(next_plugin_)) {
        ++next_plugin_;
        continue;
      }
      *pi = next_plugin_;
      *ii = next_item_++;
      if (next_item_ == items_) ++next_plugin_, next_item_ = 0;
      return true;
    }
    return false;
  }

  void Work() {
    for (;;) {
      std::size_t pi = 0, ii = 0;
      {
        std::lock_guard<std::mutex> lock(cursor_mutex_);
        if (!Next(&pi, &ii)) return;
      }
      PluginSlot& e = entries_[pi];
      const std::size_t sc = order_[ii % n_];
      result::ScenarioResult r =
          PlayScenario(*s_.selected[sc], *q_.profile, q_.schema, e.target, s_.play);
      std::lock_guard<std::mutex> lock(report_mutex_);
      Show(e, &r);
      if (!q_.corpus)
        e.played[sc * repeat_ + ii / n_] = std::move(r);  // in suite order, repeats together
      if (--e.remaining == 0) Finish(e);
    }
  }

  const RunRequest& q_;
  const Settled& s_;
  std::ostream& err_;
  std::vector<PluginSlot>& entries_;
  const std::size_t n_;
  const std::vector<std::size_t> order_;
  const std::size_t repeat_, items_;
  std::mutex cursor_mutex_, report_mutex_;  // taken in that order when both are
  std::size_t next_plugin_ = 0, next_item_ = 0;
  int errored_ = 0;
};

// The report's head: the tool, the protocol, the suites, when and how the run was made.
void StartReport(const RunRequest& q, const Settled& s, const PluginSlot& first,
                 result::RunReport* report) {
  report->tool_version = q.tool_version;
  report->protocol = q.profile->name();
  report->protocol_title = q.profile->title();
  report->suite = s.suites.front();
  std::string error;
  if (SuiteVersion v; ReadSuiteVersion(report->suite, &v, &error)) report->suite_version = v.digest;
  report->suites = s.suites;
  report->started_at = NowIso8601();
  report->strict = q.strict;
  report->jobs = s.jobs;
  if (!q.corpus) report->plugin = first.run.info;
  report->shard = {s.shard, s.shards};
}

// A run of one plugin: its results into the report, and the exit code they earn.
void Conclude(const RunRequest& q, const Settled& s, int errored, bool interrupted,
              std::ostream& err, PluginSlot& e, RunOutcome* out) {
  result::RunReport& report = out->report;
  report.scenarios = std::move(e.head);
  for (auto& r : e.played) report.scenarios.push_back(std::move(r));
  result::Summarise(&report);
  for (const scenario::Scenario& sc : s.scenarios) out->suite_ids.push_back(sc.id);
  out->today = s.expect.today;
  if (errored > 0 || interrupted) {
    out->exit_code = kHarnessError;
  } else if (s.shard > 1 && e.run.state == PluginState::kRefused) {
    err << "fakehost: its host refuses this plugin's manifest (" << kManifestScenarioId
        << " is reported by shard 1/" << s.shards << ")\n";
    out->exit_code = kFailures;
  } else {
    out->exit_code = Verdict(report, {q.fail_untested, s.shards > 0}, err);
  }
}

}  // namespace

int DefaultJobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

std::string NowIso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The run's phases in the order they happen.
RunOutcome Execute(const RunRequest& q) {
  NullBuffer discard;
  std::ostream silent(&discard);
  std::ostream& err = q.err ? *q.err : silent;
  RunOutcome out;
  out.exit_code = kBadInput;
  if (!q.profile || (!q.corpus && q.plugins.size() != 1)) {
    err << "fakehost: a run plays one plugin, or the plugins of a corpus\n";
    return out;
  }
  Settled s;
  if (!Settle(q, err, &s)) return out;
  std::vector<PluginSlot> entries(q.plugins.size());
  for (std::size_t i = 0; i < entries.size(); ++i) entries[i].run.index = i;
  // One plugin is prepared before anything runs: it may still be bad input.
  if (!q.corpus && !Prepare(q, s, q.plugins.front(), err, &entries.front())) return out;

  StartReport(q, s, entries.front(), &out.report);
  if (q.on_start)
    q.on_start(
        RunPlan{out.report, s.selected, s.manifest_selected ? &s.scenarios.front() : nullptr});

  auto t0 = Clock::now();
  int errored = Pool(q, s, err, &entries).Run();
  // Whatever a plugin left reparented to us (every Child has killed its own enclosure by now)
  // is killed, and every zombie reaped, before the report claims the run is over.
  process::SweepOrphans();
  out.report.summary.duration_ms = MsSince(t0);
  bool interrupted = q.interrupted && q.interrupted->load();
  if (q.corpus) {
    out.exit_code = errored > 0 || interrupted ? kHarnessError : kOk;
    return out;
  }
  Conclude(q, s, errored, interrupted, err, entries.front(), &out);
  return out;
}

}  // namespace fakehost::run
